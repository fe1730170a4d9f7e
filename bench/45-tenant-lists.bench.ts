/**
 * (issue 26) identity-svc's list reads (members, flags, API keys) as its coalescer sends them: one
 * grouped statement per batch of (caller, tenant) pairs that also answers the caller's role, the
 * access check (src/db/tenant-reads.ts, session 22), against the two grouped statements a list
 * read sent before it, the tenant view for the check and the list by tenant id, in the same run
 * on the same rows (seedTenantRows: 500 tenants of four members, two flags and two keys, the gateway
 * bench's shape). One client on one connection, batches of 1, 3 and 8 random pairs (what the mix of
 * bench/40-gateway groups), the two shapes alternating; CPU per batch of PostgreSQL's backend (from
 * /proc) and of this process (the `pg` client's share of identity-svc's work).
 */
import { entities } from "@flowstate/identity-svc/db/entities";
import { migrations } from "@flowstate/identity-svc/db/migrations";
import { tenantReads } from "@flowstate/identity-svc/db/tenant-reads";
import { seedTenantRows } from "@flowstate/identity-svc/testing/tenant-rows";
import { nativePool } from "@flowstate/shared/db/native-pool";
import { idList, type PreparedStatement } from "@flowstate/shared/db/prepared-read";
import { openTestDatabase } from "@flowstate/shared/db/test-database";
import { ensureDatabase, ensurePostgres } from "../deploy/local/postgres.ts";
import { cpuMs } from "./lib/processes.ts";
import type { BenchRow } from "./lib/types.ts";

const TENANTS = 500;
const BATCHES = 3000;
const ROUNDS = 2;

/** The list statements by tenant id that ran beside the tenant view until session 22 (the baseline). */
function listsByTenant(schema: string): Record<"members" | "flags" | "apiKeys", PreparedStatement> {
  const ids = "jsonb_array_elements_text($1::jsonb) WITH ORDINALITY AS q(id, i)";
  return {
    members: {
      name: "before_members",
      text: `SELECT q.i::int AS i, m.sub, m.name, m.email, m.role, m.created_at FROM ${ids}
               CROSS JOIN LATERAL (
                 SELECT u.sub, u.name, u.email, m.role, m.created_at FROM "${schema}".membership m
                   JOIN "${schema}".app_user u ON u.sub = m.sub AND u.status = 'active'
                  WHERE m.tenant_id = q.id OFFSET 0) m
              ORDER BY q.i, CASE m.role WHEN 'owner' THEN 0 WHEN 'admin' THEN 1 ELSE 2 END, m.created_at, m.sub`,
    },
    flags: {
      name: "before_flags",
      text: `SELECT q.i::int AS i, f.flag, f.enabled FROM ${ids}
               CROSS JOIN LATERAL (SELECT f.flag, f.enabled FROM "${schema}".feature_flag f WHERE f.tenant_id = q.id OFFSET 0) f`,
    },
    apiKeys: {
      name: "before_api_keys",
      text: `SELECT q.i::int AS i, k.key_id, k.name, k.scope, k.created_by, k.created_at, k.revoked_at FROM ${ids}
               CROSS JOIN LATERAL (
                 SELECT k.key_id, k.name, k.scope, k.created_by, k.created_at, k.revoked_at
                   FROM "${schema}".api_key k WHERE k.tenant_id = q.id OFFSET 0) k
              ORDER BY q.i, k.created_at DESC, k.key_id`,
    },
  };
}

export default async function tenantListsBench(): Promise<BenchRow[]> {
  const url = process.env.DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/flowstate_test";
  await ensurePostgres(url);
  await ensureDatabase(url);
  const db = await openTestDatabase({ url, prefix: "bench_tenant_lists", entities, migrations });
  try {
    await seedTenantRows(db.orm, db.schema, TENANTS);
    const reads = tenantReads(db.orm, db.schema);
    const before = listsByTenant(db.schema);
    const client = await (await nativePool(db.orm.em)).connect();
    try {
      const query = (s: PreparedStatement, values: unknown[]) => client.query({ ...s, values });
      const backend = (await client.query<{ pid: number }>("SELECT pg_backend_pid() AS pid")).rows[0]!.pid;
      const pairs = (
        await client.query<{ sub: string; tenant_id: string }>(
          `SELECT m.sub, m.tenant_id FROM "${db.schema}".membership m
             JOIN "${db.schema}".tenant t ON t.id = m.tenant_id AND t.status = 'active'`,
        )
      ).rows;
      const batch = (size: number) =>
        Array.from({ length: size }, () => pairs[Math.floor(Math.random() * pairs.length)]!);
      const lists = [
        ["members", reads.members.statement, before.members],
        ["flags", reads.flags.statement, before.flags],
        ["API keys", reads.apiKeys.statement, before.apiKeys],
      ] as const;
      // CPU µs per batch: [PostgreSQL, client] summed over the rounds, per list, batch size and shape.
      const totals = new Map<string, { pg: number; client: number; batches: number }>();
      for (let round = 0; round < ROUNDS; round++) {
        for (const size of [1, 3, 8]) {
          for (const [name, now, old] of lists) {
            for (const shape of round % 2 ? (["two", "one"] as const) : (["one", "two"] as const)) {
              const run = async (n: number) => {
                for (let i = 0; i < n; i++) {
                  const b = batch(size);
                  const [subs, ids] = [idList(b.map((p) => p.sub)), idList(b.map((p) => p.tenant_id))];
                  // One statement with the access check, or the tenant view beside the list by tenant id.
                  if (shape === "one") await query(now, [subs, ids]);
                  else await Promise.all([query(reads.views, [subs, ids]), query(old, [ids])]);
                }
              };
              await run(200); // plans settled (five custom, then the generic one) and the JIT warm
              const [pg0, client0] = [cpuMs(backend), process.cpuUsage()];
              await run(BATCHES);
              const used = process.cpuUsage(client0);
              const key = `${name}|${size}|${shape}`;
              const t = totals.get(key) ?? { pg: 0, client: 0, batches: 0 };
              t.pg += (cpuMs(backend) - pg0) * 1000;
              t.client += used.user + used.system;
              t.batches += BATCHES;
              totals.set(key, t);
            }
          }
        }
      }
      const perBatch = (key: string) => {
        const t = totals.get(key)!;
        return { pg: t.pg / t.batches, client: t.client / t.batches };
      };
      const round1 = (x: number) => Math.round(x * 10) / 10;
      return lists.flatMap(([name]) =>
        [1, 3, 8].map((size): BenchRow => {
          const [one, two] = [perBatch(`${name}|${size}|one`), perBatch(`${name}|${size}|two`)];
          return {
            name: `identity-svc ${name} list read, batch of ${size}: CPU per batch, PostgreSQL + client (PostgreSQL ${round1(one.pg)} against ${round1(two.pg)} µs)`,
            value: round1(one.pg + one.client),
            unit: "µs CPU/batch",
            baseline: {
              name: "tenant view + list by tenant, two statements (before session 22)",
              value: round1(two.pg + two.client),
            },
            ratio: (one.pg + one.client) / (two.pg + two.client),
          };
        }),
      );
    } finally {
      client.release();
    }
  } finally {
    await db.close();
  }
}
