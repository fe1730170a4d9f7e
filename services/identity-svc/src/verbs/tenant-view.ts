import type { TenantRole } from "@flowstate/contracts/ids";
import type { Tenant } from "@flowstate/contracts/rest/identity/tenants";
import { type CoalescedRead, coalescedRead } from "@flowstate/shared/db/coalesced-read";
import { type PreparedStatement, preparedRead } from "@flowstate/shared/db/prepared-read";
import type { EntityManager } from "@mikro-orm/postgresql";
import { type ServiceContext, table } from "../context.ts";
import type { IdentityDeps } from "../deps.ts";

type Row = { id: string; name: string; created_at: Date; owner_sub: string; role: TenantRole | null };

const toTenant = (r: Row, role: TenantRole): Tenant => ({
  id: r.id,
  name: r.name,
  owner_sub: r.owner_sub,
  role,
  created_at: new Date(r.created_at).toISOString(),
});

/**
 * Active tenants with their owner and the caller's role, one query per read (the read path of GET
 * /v1/tenants/{id} is a single round trip). `one` runs inside a verb's transaction; `many` is the
 * same read for a group of (sub, tenant) pairs, which concurrent GETs share (see coalesced-read.ts);
 * `all` lists a user's tenants. Built once per schema.
 */
const statements = new Map<string, { one: string; many: PreparedStatement; all: PreparedStatement }>();
function statementsFor(ctx: ServiceContext) {
  let s = statements.get(ctx.deps.schema);
  if (!s) {
    const [tenant, membership] = [table(ctx, "tenant"), table(ctx, "membership")];
    const columns = "t.id, t.name, t.created_at, o.sub AS owner_sub, me.role";
    const owner = `JOIN ${membership} o ON o.tenant_id = t.id AND o.role = 'owner'`;
    s = {
      one: `SELECT ${columns} FROM ${tenant} t ${owner}
              LEFT JOIN ${membership} me ON me.tenant_id = t.id AND me.sub = ?
             WHERE t.status = 'active' AND t.id = ?`,
      many: {
        name: `tenant_views_${ctx.deps.schema}`,
        text: `SELECT q.i::int AS i, ${columns}
                 FROM unnest($1::text[], $2::text[]) WITH ORDINALITY AS q(sub, id, i)
                 JOIN ${tenant} t ON t.id = q.id ${owner}
                 LEFT JOIN ${membership} me ON me.tenant_id = t.id AND me.sub = q.sub
                WHERE t.status = 'active'`,
      },
      all: {
        name: `tenants_of_${ctx.deps.schema}`,
        text: `SELECT ${columns} FROM ${tenant} t ${owner}
                 JOIN ${membership} me ON me.tenant_id = t.id AND me.sub = $1
                WHERE t.status = 'active' ORDER BY t.created_at, t.id`,
      },
    };
    statements.set(ctx.deps.schema, s);
  }
  return s;
}

/**
 * Statements of tenant reads in flight at once. Few on purpose: each statement sent to an idle
 * backend costs a wake-up on both sides, so under load a couple of statements carrying large
 * groups beat many carrying one read each (2-core bench: PostgreSQL 47-68 -> 13-22 µs CPU per
 * read, identity-svc 91-172 -> 64-127, going from 10 to 2). At low load a read still goes out at
 * once. The rest of the pool stays free for transactions.
 */
const READS_IN_FLIGHT = 2;

/** One coalescing reader per database (per IdentityDeps). */
const readers = new WeakMap<IdentityDeps, CoalescedRead<[sub: string, tenantId: string], Row>>();
function readerFor(ctx: ServiceContext) {
  let reader = readers.get(ctx.deps);
  if (!reader) {
    const { orm } = ctx.deps;
    const many = statementsFor(ctx).many;
    reader = coalescedRead({
      maxInFlight: Math.min(READS_IN_FLIGHT, orm.config.get("pool")?.max ?? 10),
      maxBatch: 64,
      run: async (keys) => {
        const rows = await preparedRead<Row & { i: number }>(orm.em, many, [
          keys.map((k) => k[0]),
          keys.map((k) => k[1]),
        ]);
        const byKey: (Row | undefined)[] = new Array(keys.length);
        for (const r of rows) byKey[r.i - 1] = r;
        return byKey;
      },
    });
    readers.set(ctx.deps, reader);
  }
  return reader;
}

/** One tenant as `sub` sees it: `memberRole` null when `sub` is not a member (the tenant's `role` then says "member"). */
export async function tenantView(
  ctx: ServiceContext,
  /** The call's unit of work, if it has one: inside a transaction the read joins it. */
  em: EntityManager | undefined,
  tenantId: string,
  sub: string,
): Promise<{ tenant: Tenant; memberRole: TenantRole | null } | null> {
  const row = em?.isInTransaction()
    ? (await em.execute<Row[]>(statementsFor(ctx).one, [sub, tenantId]))[0]
    : await readerFor(ctx).load([sub, tenantId]);
  if (!row) return null;
  return { tenant: toTenant(row, row.role ?? "member"), memberRole: row.role };
}

export async function tenantsOf(ctx: ServiceContext, em: EntityManager, sub: string): Promise<Tenant[]> {
  return (await preparedRead<Row>(em, statementsFor(ctx).all, [sub])).map((r) => toTenant(r, r.role!));
}
