import { emit, inTransaction, now, type ServiceContext } from "../context.ts";
import { authorizeTenant } from "./lib/authorize-tenant.ts";

/**
 * Soft-deletes a tenant (owner only): it disappears for everyone (404, like a tenant that never
 * existed), its API keys stop working, and the row stays for audit and a later purge.
 */
export async function softDeleteTenant({ ctx, tenantId }: { ctx: ServiceContext; tenantId: string }): Promise<void> {
  await inTransaction(ctx, async (em) => {
    const { tenant, sub } = await authorizeTenant(ctx, em, tenantId, { minRole: "owner", apiKey: false });
    tenant.status = "deleted";
    tenant.deleted_at = now(ctx);
    tenant.deleted_by = sub;
    const meta = { tenant_id: tenantId, subject: null }; // about the tenant and everyone in it
    emit(ctx, em, "TenantSoftDeleted.v1", { tenant_id: tenantId, deleted_by: sub }, meta);
    emit(ctx, em, "AccessRevoked.v1", { scope: "membership", tenant_id: tenantId }, meta);
    emit(ctx, em, "AccessRevoked.v1", { scope: "api_key", tenant_id: tenantId }, meta);
  });
  ctx.invalidations.push({ scope: "membership", tenant_id: tenantId }, { scope: "api_key", tenant_id: tenantId });
}
