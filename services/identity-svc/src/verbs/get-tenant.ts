import { decideTenantAccess, type TenantNeed } from "@flowstate/contracts/auth/tenant-access";
import type { Tenant } from "@flowstate/contracts/rest/identity/tenants";
import { tenantRefusal } from "@flowstate/shared/auth/tenant-refusal";
import { DomainError, notFound } from "@flowstate/shared/errors/domain-error";
import type { ServiceContext } from "../context.ts";
import { tenantView } from "./lib/tenant-view.ts";

/** tenants.get in the registry: any member, or an API key of the tenant (read scope is enough). */
const NEED: TenantNeed = { minRole: "member", apiKey: "read" };

/**
 * A tenant, as the caller sees it (`role` is the caller's, or the role an API key acts with). One
 * query: the tenant, its owner and the caller's (or the key creator's) membership together; the
 * platform's access rule decides from that row (contracts/src/auth/tenant-access.ts).
 */
export async function getTenant({ ctx, tenantId }: { ctx: ServiceContext; tenantId: string }): Promise<Tenant> {
  const a = ctx.actor;
  if (a.kind !== "user" && a.kind !== "api_key") {
    throw new DomainError("unauthenticated", "UNAUTHENTICATED", "sign in first");
  }
  if (a.kind === "api_key" && a.tenant_id !== tenantId) throw notFound("tenant");
  const view = await tenantView(ctx, ctx.existingEm(), tenantId, a.sub);
  if (!view) throw notFound("tenant");
  const decision = decideTenantAccess(
    NEED,
    a.kind === "user"
      ? { kind: "user", role: view.memberRole }
      : { kind: "api_key", scope: a.scope, creatorRole: view.memberRole },
  );
  if (!decision.ok) throw tenantRefusal(decision.code, NEED.minRole);
  return decision.role === view.tenant.role ? view.tenant : { ...view.tenant, role: decision.role };
}
