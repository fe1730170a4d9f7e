import type { Tenant } from "@flowstate/contracts/rest/identity/tenants";
import { DomainError, notFound } from "@flowstate/shared/errors/domain-error";
import { existingEm, type ServiceContext } from "../context.ts";
import { tenantView } from "./tenant-view.ts";

/**
 * A tenant, for any member or an API key of that tenant (read scope is enough). One query: the
 * tenant, its owner and the caller's membership together.
 */
export async function getTenant({ ctx, tenantId }: { ctx: ServiceContext; tenantId: string }): Promise<Tenant> {
  const a = ctx.actor;
  if (a.kind === "api_key") {
    if (a.tenant_id !== tenantId) throw notFound("tenant");
    const view = await tenantView(ctx, existingEm(ctx), tenantId, null, a.scope === "write" ? "admin" : "member");
    if (!view) throw notFound("tenant");
    return view.tenant;
  }
  if (a.kind !== "user") throw new DomainError("unauthenticated", "UNAUTHENTICATED", "sign in first");
  const view = await tenantView(ctx, existingEm(ctx), tenantId, a.sub);
  if (!view?.memberRole) throw notFound("tenant");
  return view.tenant;
}
