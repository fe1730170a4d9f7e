import type { Keyring } from "@flowstate/shared/auth/keyring";
import type { AwsClients } from "@flowstate/shared/aws/clients";
import { platformDeps } from "@flowstate/shared/boot/platform-deps";
import type { Database } from "@flowstate/shared/db/open-database";
import type { MetricsRegistry } from "@flowstate/shared/http/metrics";
import type { Logger } from "@flowstate/shared/log/logger";
import { connectorLookup } from "@flowstate/shared/marketplace/connector-lookup";
import { chainedPrincipalCredentials, type PrincipalCredentials } from "@flowstate/shared/marketplace/principals";
import { createSellerSessions } from "@flowstate/shared/marketplace/seller-sessions";
import type { CredentialCheck } from "@flowstate/shared/seam/call-context";
import { remoteCredentials } from "@flowstate/shared/seam/credential-check";
import { callSigner } from "@flowstate/shared/seam/verify-caller";
import type { OffersConfig } from "./config.ts";
import type { OffersDeps } from "./deps.ts";
import { CurrencyCache } from "./marketplace/currency-cache.ts";
import { sellerAccess } from "./marketplace/seller-access.ts";

/**
 * How this process signs as each Flowstate principal: the configured keys (the local stack gives
 * the seller sandbox's), or, when none are configured, the principal's role assumed from the
 * default credential chain (production), as connector-svc does.
 */
export function principalCredentialsOf(config: OffersConfig, aws: AwsClients): PrincipalCredentials {
  const b = [config.PRINCIPAL_BACKEND_ACCESS_KEY_ID, config.PRINCIPAL_BACKEND_SECRET_ACCESS_KEY];
  const m = [config.PRINCIPAL_MCP_EXECUTION_ACCESS_KEY_ID, config.PRINCIPAL_MCP_EXECUTION_SECRET_ACCESS_KEY];
  if (b[0] && b[1] && m[0] && m[1]) {
    return {
      backend: { accessKeyId: b[0], secretAccessKey: b[1] },
      "mcp-execution": { accessKeyId: m[0], secretAccessKey: m[1] },
    };
  }
  return chainedPrincipalCredentials(aws.data("sts"), {
    accountId: config.FLOWSTATE_ACCOUNT_ID,
    prefix: config.SERVICE_PREFIX,
    stage: config.STAGE,
  });
}

/** The one way main.ts assembles OffersDeps (tests build theirs in testing/harness.ts). */
export function buildDeps(o: {
  config: OffersConfig;
  orm: Database;
  logger: Logger;
  aws: AwsClients;
  /** Keys per caller (ADR 0014): its calls to connector-svc are signed with `offers-svc--connector-svc`. */
  callerKeys: Keyring;
  metrics?: MetricsRegistry;
  wakeTracker: () => void;
  /** Default: identity-svc's credential check at IDENTITY_URL; tests without identity-svc pass credentialsAsSigned. */
  credentials?: CredentialCheck;
}): OffersDeps & { close(): void } {
  const sessions = createSellerSessions({
    aws: o.aws,
    principals: principalCredentialsOf(o.config, o.aws),
    logger: o.logger,
  });
  o.metrics?.counter("seller_assume_role_total", "AssumeRole calls into sellers' accounts", () => [
    { labels: {}, value: sessions.stats().assumeRoleCalls },
  ]);
  const directory = connectorLookup({
    baseUrl: o.config.CONNECTOR_URL,
    sign: callSigner(o, "offers-svc", "connector-svc"),
    ttlMs: o.config.CONNECTOR_CACHE_SECONDS * 1000,
  });
  const ttlMs = o.config.SELLER_CURRENCIES_TTL_SECONDS * 1000;
  return {
    ...platformDeps(o),
    credentials:
      o.credentials ??
      remoteCredentials({
        identityUrl: o.config.IDENTITY_URL,
        sign: callSigner(o, "offers-svc", "identity-svc"),
      }),
    sellers: sellerAccess(sessions, directory),
    currencies: new CurrencyCache({
      ttlMs,
      undeterminedTtlMs: Math.min(ttlMs, 5000),
      max: o.config.SELLER_CURRENCIES_CACHE_MAX,
    }),
    wakeTracker: o.wakeTracker,
    clock: () => new Date(),
    agreementWatchIntervalMs: o.config.AGREEMENT_WATCH_INTERVAL_SECONDS * 1000,
    close: () => sessions.close(),
  };
}
