import type { TenantRole } from "@flowstate/contracts/ids";
import type { Member, MemberList } from "@flowstate/contracts/rest/identity/members";
import { type ServiceContext, table } from "../context.ts";
import { checkTenantAccess } from "./lib/authorize-tenant.ts";

type Row = { sub: string; name: string; email: string; role: TenantRole; created_at: Date };

export const toMember = (r: Row): Member => ({
  sub: r.sub,
  name: r.name,
  email: r.email,
  role: r.role,
  added_at: new Date(r.created_at).toISOString(),
});

/** Active accounts that are members of the tenant, owner first. */
export async function listMembers({ ctx, tenantId }: { ctx: ServiceContext; tenantId: string }): Promise<MemberList> {
  await checkTenantAccess(ctx, ctx.existingEm(), tenantId, { minRole: "member", apiKey: "read" });
  const rows = await ctx.em.execute<Row[]>(
    `SELECT u.sub, u.name, u.email, m.role, m.created_at
       FROM ${table(ctx, "membership")} m JOIN ${table(ctx, "app_user")} u ON u.sub = m.sub AND u.status = 'active'
      WHERE m.tenant_id = ?
      ORDER BY CASE m.role WHEN 'owner' THEN 0 WHEN 'admin' THEN 1 ELSE 2 END, m.created_at, u.sub`,
    [tenantId],
  );
  return { members: rows.map(toMember) };
}
