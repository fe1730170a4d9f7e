import type { Keyring } from "@flowstate/shared/auth/keyring";
import type { Database } from "@flowstate/shared/db/open-database";
import type { Logger } from "@flowstate/shared/log/logger";
import type { CredentialCheck } from "@flowstate/shared/seam/call-context";
import type { CurrencyCache } from "./marketplace/currency-cache.ts";
import type { SellerAccess } from "./marketplace/seller-access.ts";

/** Everything offers-svc runs on, built once at boot (main.ts) or by a test (testing/harness.ts). */
export interface OffersDeps {
  orm: Database;
  /** The ORM's schema, for hand-written SQL. */
  schema: string;
  logger: Logger;
  /** Keys per caller (ADR 0014); the seam verifies v4 headers with them, its own calls are signed with them. */
  callerKeys: Keyring;
  sellers: SellerAccess;
  currencies: CurrencyCache;
  /** How a write re-checks the caller's session or API key (identity-svc's credential check; ADR 0012). */
  credentials: CredentialCheck;
  /** Tells the change-set tracker that a change set was submitted (it polls sooner than its idle tick). */
  wakeTracker: () => void;
  clock: () => Date;
  /** The agreement watch's interval: at most one SearchAgreements page per tenant per interval (watch/). */
  agreementWatchIntervalMs: number;
}
