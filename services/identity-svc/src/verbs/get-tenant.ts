import type { Tenant } from "@flowstate/contracts/rest/identity/tenants";
import type { ServiceContext } from "../context.ts";
import { checkTenantAccess } from "./lib/authorize-tenant.ts";

/**
 * A tenant, as the caller sees it (`role` is the caller's, or the role an API key acts with): any
 * member, or an API key of the tenant (read scope is enough; tenants.get in the registry). One
 * query: the tenant, its owner and the caller's (or the key creator's) membership together.
 */
export async function getTenant({ ctx, tenantId }: { ctx: ServiceContext; tenantId: string }): Promise<Tenant> {
  return (await checkTenantAccess(ctx, ctx.existingEm(), tenantId, { minRole: "member", apiKey: "read" })).tenant;
}
