import type { TenantRole } from "@flowstate/contracts/ids";
import type { MembershipState } from "@flowstate/contracts/internal/identity";
import { notFound } from "@flowstate/shared/errors/domain-error";
import { type ServiceContext, table } from "../context.ts";

/**
 * The gateway's membership check for `/v1/tenants/{id}/**`: the caller's role in an active tenant,
 * or 404 when the tenant is missing, deleted, or not theirs (the same answer, on purpose).
 */
export async function membershipState({
  ctx,
  tenantId,
  sub,
}: {
  ctx: ServiceContext;
  tenantId: string;
  sub: string;
}): Promise<MembershipState> {
  const rows = await ctx.em.execute<{ role: TenantRole }[]>(
    `SELECT m.role FROM ${table(ctx, "membership")} m
       JOIN ${table(ctx, "tenant")} t ON t.id = m.tenant_id AND t.status = 'active'
       JOIN ${table(ctx, "app_user")} u ON u.sub = m.sub AND u.status = 'active' AND NOT u.disabled
      WHERE m.tenant_id = ? AND m.sub = ?`,
    [tenantId, sub],
  );
  const row = rows[0];
  if (!row) throw notFound("membership");
  return { tenant_id: tenantId, sub, role: row.role };
}
