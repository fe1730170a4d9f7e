import type { TenantRole } from "@flowstate/contracts/ids";
import { type CoalescedRead, coalescedRead } from "@flowstate/shared/db/coalesced-read";
import type { Database } from "@flowstate/shared/db/open-database";
import { idList, type PreparedStatement, preparedRead } from "@flowstate/shared/db/prepared-read";
import type { EntityManager } from "@mikro-orm/postgresql";

export type TenantRow = { id: string; name: string; created_at: Date; owner_sub: string; role: TenantRole | null };

/**
 * The tenant read path's statements and its coalescing reader, built once at boot with the deps
 * (never module-level state: two apps in one process, as the tests run them, each have their own).
 * Active tenants with their owner and the caller's role, one query per read: `one` runs inside a
 * verb's transaction; `byMember` is the same read for (sub, tenant) pairs, which concurrent GETs
 * share (see coalesced-read.ts); `all` lists a user's tenants. The lists (flags, members, API
 * keys) answer the caller's role beside the list, for the list routes' access check (TenantLists).
 */
export interface TenantReads {
  one: string;
  all: PreparedStatement;
  /** A tenant's stored flags (flag, enabled). */
  flags: TenantLists<{ flag: string; enabled: boolean }>;
  /** A tenant's active members, owner first (sub, name, email, role, created_at). */
  members: TenantLists<MemberRow>;
  /** A tenant's API keys, revoked ones included, newest first (never the secret's hash). */
  apiKeys: TenantLists<ApiKeyRow>;
  byMember: CoalescedRead<[sub: string, tenantId: string], TenantRow>;
  /** The statement `byMember` runs: `$1` the subs, `$2` the tenant ids (each an `idList`). */
  views: PreparedStatement;
}

export type ApiKeyRow = {
  key_id: string;
  name: string;
  scope: "read" | "write";
  created_by: string;
  created_at: Date | string;
  revoked_at: Date | string | null;
};

export type MemberRow = { sub: string; name: string; email: string; role: TenantRole; created_at: Date };

/** A list as one caller sees it: `role` is the caller's in the tenant (null: not a member). */
export interface TenantListRead<R> {
  role: TenantRole | null;
  rows: R[];
}

/**
 * A per-tenant list read together with the access check it needs, for many (caller, tenant) pairs
 * in one statement: `statement` takes the callers' subs and the tenant ids as two JSON arrays
 * (`idList`, prepared-read.ts says why) and answers, for each pair whose tenant is active, the
 * caller's role on every row (`caller_role`) and the list's columns (all null on the one row of
 * an empty list); a pair with no active tenant has no row, so `load` answers null. A null sub
 * matches no member: the read of a route whose access was decided elsewhere. `load` shares
 * statements between concurrent reads (coalesced-read.ts); `inTransaction` runs it for one pair
 * on the transaction's connection.
 * Why grouped: under a mix of many tenants each GET used to send its own statement, and the
 * statements (a socket write and a wake-up on both sides each) were most of the read's cost. Why
 * the access check rides along: it was a second grouped statement per list read (the tenant view),
 * half of the list routes' statements in bench/40-gateway.bench.ts's mix.
 */
export interface TenantLists<R> {
  statement: PreparedStatement;
  load(sub: string | null, tenantId: string): Promise<TenantListRead<R> | null>;
  inTransaction(em: EntityManager, sub: string | null, tenantId: string): Promise<TenantListRead<R> | null>;
}

type ListRow<R> = { [K in keyof R]: R[K] | null } & { i: number; caller_role: TenantRole | null };

function tenantLists<R>(orm: Database, statement: PreparedStatement, present: keyof R): TenantLists<R> {
  // Rows in statement order, the pairs' numbers (`i`) ascending: each pair's read, or null.
  const collect = (count: number, rows: ListRow<R>[]) => {
    const reads: (TenantListRead<R> | null)[] = new Array(count).fill(null);
    for (const row of rows) {
      let read = reads[row.i - 1];
      if (!read) {
        read = { role: row.caller_role, rows: [] };
        reads[row.i - 1] = read;
      }
      // The row keeps `i` and `caller_role` beside the list's columns, as the callers map it field by field.
      if (row[present] !== null) read.rows.push(row as unknown as R);
    }
    return reads;
  };
  const params = (keys: readonly (readonly [string | null, string])[]) => [
    idList(keys.map((k) => k[0])),
    idList(keys.map((k) => k[1])),
  ];
  const grouped = coalescedRead<readonly [string | null, string], TenantListRead<R> | null>({
    maxInFlight: Math.min(READS_IN_FLIGHT, orm.config.get("pool")?.max ?? 10),
    maxBatch: 64,
    run: async (keys) => collect(keys.length, await preparedRead<ListRow<R>>(orm.em, statement, params(keys))),
  });
  return {
    statement,
    load: async (sub, tenantId) => (await grouped.load([sub, tenantId])) ?? null,
    inTransaction: async (em, sub, tenantId) =>
      collect(1, await preparedRead<ListRow<R>>(em, statement, params([[sub, tenantId]])))[0] ?? null,
  };
}

/**
 * Statements of tenant reads in flight at once. Few on purpose: each statement sent to an idle
 * backend costs a wake-up on both sides, so under load a couple of statements carrying large
 * groups beat many carrying one read each (2-core bench: PostgreSQL 47-68 -> 13-22 µs CPU per
 * read, identity-svc 91-172 -> 64-127, going from 10 to 2). At low load a read still goes out at
 * once. The rest of the pool stays free for transactions.
 */
const READS_IN_FLIGHT = 2;

export function tenantReads(orm: Database, schema: string): TenantReads {
  const [tenant, membership] = [`"${schema}"."tenant"`, `"${schema}"."membership"`];
  const columns = "t.id, t.name, t.created_at, o.sub AS owner_sub, me.role";
  const owner = `JOIN ${membership} o ON o.tenant_id = t.id AND o.role = 'owner'`;
  // Every grouped statement looks each id up through a LATERAL subquery (LIMIT 1 on the tenant's
  // key, OFFSET 0 on the lists: both keep PostgreSQL from flattening it into a plain join). As plain
  // joins, PostgreSQL hashed the whole tenant, membership or key table for a batch of a few ids once
  // the tables held a few hundred rows: a sequential scan per read that grows with every tenant
  // (issue 26, measured on the bench database: 500 tenants, 2,000 members; 0.23 -> 0.14 ms per
  // grouped tenant read, 0.30-0.37 -> 0.21 ms per members read). The caller's role is looked up
  // inside the subquery too: as a join outside it, a batch of 64 (or any generic plan) hashed the
  // whole membership table (7,954 sequential scans of its 2,001 rows in one 40-gateway bench run).
  // tenant-reads.test.ts checks the plans.
  const many: PreparedStatement = {
    name: `tenant_views_${schema}`,
    text: `SELECT q.i::int AS i, t.id, t.name, t.created_at, t.owner_sub, t.role
             FROM ROWS FROM (jsonb_array_elements_text($1::jsonb), jsonb_array_elements_text($2::jsonb))
                  WITH ORDINALITY AS q(sub, id, i)
             CROSS JOIN LATERAL (
               SELECT t.id, t.name, t.created_at, o.sub AS owner_sub, me.role FROM ${tenant} t ${owner}
                 LEFT JOIN ${membership} me ON me.tenant_id = t.id AND me.sub = q.sub
                WHERE t.id = q.id AND t.status = 'active' LIMIT 1) t`,
  };
  // A list with its access check (TenantLists): the pair's active tenant and the caller's role in
  // it (inside a LATERAL with LIMIT 1, as `many` does and for the same reason), then the list
  // through a LEFT JOIN LATERAL (OFFSET 0: not flattened into a join that hashes the whole table),
  // so a tenant with an empty list still answers its one row.
  const listOf = (list: string, columns: string, order: string) =>
    `SELECT q.i::int AS i, v.role AS caller_role, ${columns}
       FROM ROWS FROM (jsonb_array_elements_text($1::jsonb), jsonb_array_elements_text($2::jsonb))
            WITH ORDINALITY AS q(sub, id, i)
       CROSS JOIN LATERAL (
         SELECT t.id, me.role FROM ${tenant} t
           LEFT JOIN ${membership} me ON me.tenant_id = t.id AND me.sub = q.sub
          WHERE t.id = q.id AND t.status = 'active' LIMIT 1) v
       LEFT JOIN LATERAL (${list} OFFSET 0) l ON true
      ORDER BY ${order}`;
  return {
    views: many,
    one: `SELECT ${columns} FROM ${tenant} t ${owner}
            LEFT JOIN ${membership} me ON me.tenant_id = t.id AND me.sub = ?
           WHERE t.status = 'active' AND t.id = ?`,
    flags: tenantLists(
      orm,
      {
        name: `feature_flags_${schema}`,
        text: listOf(
          `SELECT f.flag, f.enabled FROM "${schema}"."feature_flag" f WHERE f.tenant_id = v.id`,
          "l.flag, l.enabled",
          "q.i",
        ),
      },
      "flag",
    ),
    members: tenantLists(
      orm,
      {
        name: `members_of_${schema}`,
        text: listOf(
          `SELECT u.sub, u.name, u.email, m.role, m.created_at FROM ${membership} m
             JOIN "${schema}"."app_user" u ON u.sub = m.sub AND u.status = 'active'
            WHERE m.tenant_id = v.id`,
          "l.sub, l.name, l.email, l.role, l.created_at",
          "q.i, CASE l.role WHEN 'owner' THEN 0 WHEN 'admin' THEN 1 ELSE 2 END, l.created_at, l.sub",
        ),
      },
      "sub",
    ),
    apiKeys: tenantLists(
      orm,
      {
        name: `api_keys_of_${schema}`,
        text: listOf(
          `SELECT k.key_id, k.name, k.scope, k.created_by, k.created_at, k.revoked_at FROM "${schema}"."api_key" k WHERE k.tenant_id = v.id`,
          "l.key_id, l.name, l.scope, l.created_by, l.created_at, l.revoked_at",
          "q.i, l.created_at DESC, l.key_id",
        ),
      },
      "key_id",
    ),
    all: {
      name: `tenants_of_${schema}`,
      text: `SELECT ${columns} FROM ${tenant} t ${owner}
               JOIN ${membership} me ON me.tenant_id = t.id AND me.sub = $1
              WHERE t.status = 'active' ORDER BY t.created_at, t.id`,
    },
    byMember: coalescedRead({
      maxInFlight: Math.min(READS_IN_FLIGHT, orm.config.get("pool")?.max ?? 10),
      maxBatch: 64,
      run: async (keys) => {
        const rows = await preparedRead<TenantRow & { i: number }>(orm.em, many, [
          idList(keys.map((k) => k[0])),
          idList(keys.map((k) => k[1])),
        ]);
        const byKey: (TenantRow | undefined)[] = new Array(keys.length);
        for (const r of rows) byKey[r.i - 1] = r;
        return byKey;
      },
    }),
  };
}
