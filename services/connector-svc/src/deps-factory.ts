import type { Keyring } from "@flowstate/shared/auth/keyring";
import type { AwsClients } from "@flowstate/shared/aws/clients";
import { platformDeps } from "@flowstate/shared/boot/platform-deps";
import type { Database } from "@flowstate/shared/db/open-database";
import type { MetricsRegistry } from "@flowstate/shared/http/metrics";
import type { Logger } from "@flowstate/shared/log/logger";
import { chainedPrincipalCredentials, type PrincipalCredentials } from "@flowstate/shared/marketplace/principals";
import { createSellerSessions } from "@flowstate/shared/marketplace/seller-sessions";
import type { CredentialCheck } from "@flowstate/shared/seam/call-context";
import type { ConnectorConfig } from "./config.ts";
import { connectorRows } from "./db/connector-rows.ts";
import type { ConnectorDeps, ConnectorSettings } from "./deps.ts";
import { HealthCache } from "./health/health-cache.ts";
import { kmsVault } from "./secrets/external-id-vault.ts";

export interface BuildDepsOptions {
  orm: Database;
  logger: Logger;
  aws: AwsClients;
  callerKeys: Keyring;
  /** remoteCredentials to identity-svc (main.ts); tests without identity-svc pass credentialsAsSigned. */
  credentials: CredentialCheck;
  kmsKeyId: string;
  principals: PrincipalCredentials;
  settings: ConnectorSettings;
  metrics?: MetricsRegistry | undefined;
  clock?: () => Date;
}

/** The one way to assemble ConnectorDeps, shared by main.ts and the test harness. */
export function buildDeps(o: BuildDepsOptions): ConnectorDeps {
  const sessions = createSellerSessions({ aws: o.aws, principals: o.principals, logger: o.logger });
  o.metrics?.counter("seller_assume_role_total", "AssumeRole calls into sellers' accounts", () => [
    { labels: {}, value: sessions.stats().assumeRoleCalls },
  ]);
  o.metrics?.gauge("seller_sessions_cached", "Seller sessions (tenant × principal) held in memory", () => [
    { labels: {}, value: sessions.stats().cached },
  ]);
  const platform = platformDeps(o);
  return {
    ...platform,
    credentials: o.credentials,
    rows: connectorRows(o.orm, platform.schema),
    vault: kmsVault(o.aws.data("kms"), o.kmsKeyId),
    kmsKeyId: o.kmsKeyId,
    sessions,
    settings: o.settings,
    health: new HealthCache(o.settings.healthCacheMs),
    firstReads: new Map(),
    clock: o.clock ?? (() => new Date()),
  };
}

/** The settings part of the configuration. */
export function settingsOf(config: ConnectorConfig): ConnectorSettings {
  return {
    flowstateAccountId: config.FLOWSTATE_ACCOUNT_ID,
    prefix: config.SERVICE_PREFIX,
    stage: config.STAGE,
    principals: config.CONNECTOR_PRINCIPALS,
    templateUrl: config.CONNECTOR_TEMPLATE_URL,
    terraformModuleSource: config.TERRAFORM_MODULE_SOURCE,
    terraformModuleVersion: config.TERRAFORM_MODULE_VERSION,
    healthCacheMs: config.HEALTH_CACHE_SECONDS * 1000,
  };
}

/**
 * How this process signs as each Flowstate principal: the configured keys (the local stack gives
 * the seller sandbox's), or, when none are configured, the principal's role assumed from the
 * default credential chain (production; ADR 0006).
 */
export function principalCredentialsOf(config: ConnectorConfig, aws: AwsClients): PrincipalCredentials {
  const chained = () =>
    chainedPrincipalCredentials(aws.data("sts"), {
      accountId: config.FLOWSTATE_ACCOUNT_ID,
      prefix: config.SERVICE_PREFIX,
      stage: config.STAGE,
    });
  const b = [config.PRINCIPAL_BACKEND_ACCESS_KEY_ID, config.PRINCIPAL_BACKEND_SECRET_ACCESS_KEY];
  const m = [config.PRINCIPAL_MCP_EXECUTION_ACCESS_KEY_ID, config.PRINCIPAL_MCP_EXECUTION_SECRET_ACCESS_KEY];
  if (!b[0] || !b[1] || !m[0] || !m[1]) return chained();
  return {
    backend: { accessKeyId: b[0], secretAccessKey: b[1] },
    "mcp-execution": { accessKeyId: m[0], secretAccessKey: m[1] },
  };
}
