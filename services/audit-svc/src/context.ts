import type { TenantContext, VerifiedIdentity } from "@flowstate/contracts/internal/identity";
import type { Logger } from "@flowstate/shared/log/logger";
import type { AuditDeps } from "./deps.ts";

/** What a verb needs about the call it serves, built per request (or by a test). */
export interface ServiceContext {
  /** A user or a tenant API key, as the gateway verified it. */
  actor: Extract<VerifiedIdentity, { kind: "user" | "api_key" }>;
  /** The gateway's membership check of a `/v1/tenants/{id}` route: the tenant and the caller's role. */
  tenant?: TenantContext | undefined;
  requestId: string;
  logger: Logger;
  deps: AuditDeps;
}

/** A schema-qualified table name for hand-written SQL. */
export const table = (deps: AuditDeps, name: string): string => `"${deps.schema}"."${name}"`;
