import type { Keyring } from "@flowstate/shared/auth/keyring";
import type { Database } from "@flowstate/shared/db/open-database";
import type { Logger } from "@flowstate/shared/log/logger";
import type { SellerSessions } from "@flowstate/shared/marketplace/seller-sessions";
import type { CredentialCheck } from "@flowstate/shared/seam/call-context";
import type { ConnectorRows } from "./db/connector-rows.ts";
import type { HealthCache } from "./health/health-cache.ts";
import type { ExternalIdVault } from "./secrets/external-id-vault.ts";

/** What the onboarding bundle and the health fixes are made of (configuration, not tenant data). */
export interface ConnectorSettings {
  /** Flowstate's AWS account (the principals'). */
  flowstateAccountId: string;
  prefix: string;
  stage: "dev" | "prod";
  /** Every principal a tenant's role must trust (`backend`, `mcp-execution`, later more). */
  principals: readonly string[];
  /** Where the current CloudFormation template is published. */
  templateUrl: string;
  terraformModuleSource: string;
  terraformModuleVersion: string;
  /** How long a health answer is reused per tenant. */
  healthCacheMs: number;
}

/** Everything connector-svc runs on, built once at boot (main.ts) or by a test (testing/). */
export interface ConnectorDeps {
  orm: Database;
  /** The ORM's schema, for hand-written SQL. */
  schema: string;
  logger: Logger;
  /** The connector table, with its prepared status read on `orm`'s pool. */
  rows: ConnectorRows;
  /** Keys per caller (ADR 0014): the seam checks v4 headers against them (partner-inbound signs with its pair). */
  callerKeys: Keyring;
  /** How a write re-checks the caller's session or API key (identity-svc's credential check; ADR 0012). */
  credentials: CredentialCheck;
  vault: ExternalIdVault;
  /** The KMS key the vault seals with (a second instance in a test shares it). */
  kmsKeyId: string;
  sessions: SellerSessions;
  settings: ConnectorSettings;
  health: HealthCache;
  /** First status reads of a tenant in flight in this process: one KMS call and one insert for all. */
  firstReads: Map<string, Promise<{ externalId: string; sealed: Buffer }>>;
  clock: () => Date;
}
