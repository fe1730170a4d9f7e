import { atLeast } from "@flowstate/contracts/auth/tenant-access";
import type { TenantRole } from "@flowstate/contracts/ids";
import { DomainError, notFound } from "@flowstate/shared/errors/domain-error";
import type { ServiceContext } from "../context.ts";

/**
 * The second line behind the gateway (which checked membership, role, API key scope and the
 * `marketplace_offers` flag): the signed tenant context must name this very tenant with a role at
 * least `minRole`, so a header minted for one tenant never acts on another. A mismatch is the 404
 * of a missing tenant.
 */
export function requireTenant(
  ctx: ServiceContext,
  tenantId: string,
  minRole: TenantRole,
  apiKeyScope: "read" | "write",
): void {
  if (ctx.tenant?.tenant_id !== tenantId) throw notFound("tenant");
  const a = ctx.actor;
  if (a.kind === "api_key" && (a.tenant_id !== tenantId || (apiKeyScope === "write" && a.scope !== "write"))) {
    throw new DomainError("forbidden", "INSUFFICIENT_SCOPE", "this operation needs an API key with the write scope");
  }
  // The signed role is already the effective one (a key's: its scope capped by its creator's role).
  if (!atLeast(ctx.tenant.role, minRole)) {
    throw new DomainError("forbidden", "INSUFFICIENT_ROLE", `this operation needs the ${minRole} role in the tenant`);
  }
}
