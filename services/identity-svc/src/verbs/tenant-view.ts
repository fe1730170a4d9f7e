import type { TenantRole } from "@flowstate/contracts/ids";
import type { Tenant } from "@flowstate/contracts/rest/identity/tenants";
import type { EntityManager } from "@mikro-orm/postgresql";
import { type ServiceContext, table } from "../context.ts";
import { type PreparedStatement, preparedRead } from "../db/prepared-read.ts";

type Row = { id: string; name: string; created_at: Date; owner_sub: string; role: TenantRole | null };

const toTenant = (r: Row, role: TenantRole): Tenant => ({
  id: r.id,
  name: r.name,
  owner_sub: r.owner_sub,
  role,
  created_at: new Date(r.created_at).toISOString(),
});

/**
 * Active tenants with their owner and `sub`'s role, in one query (the read path of GET
 * /v1/tenants/{id} is a single round trip). The statements are built once per schema.
 */
const statements = new Map<string, { one: PreparedStatement; all: PreparedStatement }>();
function statementsFor(ctx: ServiceContext) {
  let s = statements.get(ctx.deps.schema);
  if (!s) {
    const select = `SELECT t.id, t.name, t.created_at, o.sub AS owner_sub, me.role
       FROM ${table(ctx, "tenant")} t
       JOIN ${table(ctx, "membership")} o ON o.tenant_id = t.id AND o.role = 'owner'
       LEFT JOIN ${table(ctx, "membership")} me ON me.tenant_id = t.id AND me.sub = $1
      WHERE t.status = 'active'`;
    s = {
      one: { name: `tenant_view_${ctx.deps.schema}`, text: `${select} AND t.id = $2` },
      all: { name: `tenants_of_${ctx.deps.schema}`, text: `${select} AND me.sub IS NOT NULL ORDER BY t.created_at, t.id` },
    };
    statements.set(ctx.deps.schema, s);
  }
  return s;
}

/** One tenant as `sub` sees it; `role` when the caller is not a member (an API key) comes from `fallbackRole`. */
export async function tenantView(
  ctx: ServiceContext,
  em: EntityManager,
  tenantId: string,
  sub: string | null,
  fallbackRole?: TenantRole,
): Promise<{ tenant: Tenant; memberRole: TenantRole | null } | null> {
  const [row] = await preparedRead<Row>(em, statementsFor(ctx).one, [sub, tenantId]);
  if (!row) return null;
  const role = row.role ?? fallbackRole;
  if (!role) return { tenant: toTenant(row, "member"), memberRole: null };
  return { tenant: toTenant(row, role), memberRole: row.role };
}

export async function tenantsOf(ctx: ServiceContext, em: EntityManager, sub: string): Promise<Tenant[]> {
  return (await preparedRead<Row>(em, statementsFor(ctx).all, [sub])).map((r) => toTenant(r, r.role!));
}
