import type { TenantRole } from "@flowstate/contracts/ids";
import type { Tenant } from "@flowstate/contracts/rest/identity/tenants";
import { preparedRead } from "@flowstate/shared/db/prepared-read";
import type { EntityManager } from "@mikro-orm/postgresql";
import type { ServiceContext } from "../../context.ts";
import type { TenantRow } from "../../db/tenant-reads.ts";

const toTenant = (r: TenantRow, role: TenantRole): Tenant => ({
  id: r.id,
  name: r.name,
  owner_sub: r.owner_sub,
  role,
  created_at: new Date(r.created_at).toISOString(),
});

/** One tenant as `sub` sees it: `memberRole` null when `sub` is not a member (the tenant's `role` then says "member"). */
export async function tenantView(
  ctx: ServiceContext,
  /** The call's unit of work, if it has one: inside a transaction the read joins it. */
  em: EntityManager | undefined,
  tenantId: string,
  sub: string,
): Promise<{ tenant: Tenant; memberRole: TenantRole | null } | null> {
  const row = em?.isInTransaction()
    ? (await em.execute<TenantRow[]>(ctx.deps.tenantReads.one, [sub, tenantId]))[0]
    : await ctx.deps.tenantReads.byMember.load([sub, tenantId]);
  if (!row) return null;
  return { tenant: toTenant(row, row.role ?? "member"), memberRole: row.role };
}

export async function tenantsOf(ctx: ServiceContext, em: EntityManager, sub: string): Promise<Tenant[]> {
  return (await preparedRead<TenantRow>(em, ctx.deps.tenantReads.all, [sub])).map((r) => toTenant(r, r.role!));
}
