import type { Keyring } from "@flowstate/shared/auth/keyring";
import type { Database } from "@flowstate/shared/db/open-database";
import type { Logger } from "@flowstate/shared/log/logger";

/** Everything partner-svc's app needs, built once at boot (main.ts) or by a test. */
export interface PartnerDeps {
  orm: Database;
  schema: string;
  logger: Logger;
  /** Keys per caller (ADR 0014): the seam verifies the doors' v4 headers with `gateway--<service>`. */
  callerKeys: Keyring;
}
