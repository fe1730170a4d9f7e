import type { VerifiedIdentity } from "@flowstate/contracts/internal/identity";
import type { Logger } from "@flowstate/shared/log/logger";
import type { OffersDeps } from "./deps.ts";
import type { Principal } from "./marketplace/seller-access.ts";

/** A caller of a tenant route: a user or one of the tenant's API keys (the seam admitted both). */
export type Caller = Extract<VerifiedIdentity, { kind: "user" | "api_key" }>;

/**
 * What an offers verb needs about the call it serves: the seam's call context (shared/src/seam/)
 * seen from the tenant of the path, with the principal its door picks (route-helpers.ts `begin`).
 * Verbs never read globals and check no access: the seam applied the route's.
 */
export interface ServiceContext {
  tenantId: string;
  caller: Caller;
  principal: Principal;
  requestId: string;
  /** The inbound traceparent, already validated by the seam (or none). */
  trace?: string | undefined;
  logger: Logger;
  deps: OffersDeps;
}
