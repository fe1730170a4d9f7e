import type { RenameTenantRequest, Tenant } from "@flowstate/contracts/rest/identity/tenants";
import { emit, inTransaction, type ServiceContext } from "../context.ts";
import { authorizeTenant } from "./lib/authorize-tenant.ts";

/** Renames a tenant (admin or owner). */
export async function renameTenant({
  ctx,
  tenantId,
  input,
}: {
  ctx: ServiceContext;
  tenantId: string;
  input: RenameTenantRequest;
}): Promise<Tenant> {
  return inTransaction(ctx, async (em) => {
    const { tenant, role, ownerSub } = await authorizeTenant(ctx, em, tenantId, { minRole: "admin", apiKey: false });
    if (tenant.name !== input.name) {
      tenant.name = input.name;
      emit(ctx, em, "TenantRenamed.v1", { tenant_id: tenantId }, { tenant_id: tenantId, subject: null });
      await em.flush();
    }
    // The answer from the rows locked above: no read after the write.
    return { id: tenant.id, name: tenant.name, owner_sub: ownerSub, role, created_at: tenant.created_at.toISOString() };
  });
}
