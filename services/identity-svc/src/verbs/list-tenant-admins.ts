import type { TenantAdmins } from "@flowstate/contracts/internal/identity";
import { type ServiceContext, table } from "../context.ts";

/**
 * The owner and admins of an active tenant whose accounts are active and enabled, with their
 * addresses (notify-svc mails them when an endpoint is disabled). A missing or deleted tenant has
 * none: an empty list, so the caller has nobody to write to and nothing to learn.
 */
export async function listTenantAdmins({
  ctx,
  tenantId,
}: {
  ctx: ServiceContext;
  tenantId: string;
}): Promise<TenantAdmins> {
  const items = await ctx.em.execute<{ sub: string; email: string }[]>(
    `SELECT u.sub, u.email FROM ${table(ctx, "membership")} m
       JOIN ${table(ctx, "tenant")} t ON t.id = m.tenant_id AND t.status = 'active'
       JOIN ${table(ctx, "app_user")} u ON u.sub = m.sub AND u.status = 'active' AND NOT u.disabled AND u.email IS NOT NULL
      WHERE m.tenant_id = ? AND m.role IN ('owner', 'admin')
      ORDER BY m.created_at, u.sub`,
    [tenantId],
  );
  return { items };
}
