import { nativePool, type PooledClient } from "../db/native-pool.ts";
import type { Database } from "../db/open-database.ts";

async function onOneConnection<T>(orm: Database, fn: (client: PooledClient) => Promise<T>): Promise<T> {
  const client = await (await nativePool(orm.em)).connect();
  try {
    return await fn(client);
  } finally {
    client.release();
  }
}

/**
 * Every node type of the plan PostgreSQL makes for `text` with `values` (`on <table>` for a scan),
 * choosing the plan as `mode` says: a test that a statement reads by its index whatever it is given.
 *
 * @example
 * expect((await planNodes(orm, text, [idList(ids)], "force_generic_plan")).filter((n) => n.startsWith("Seq Scan"))).toEqual([]);
 */
export function planNodes(
  orm: Database,
  text: string,
  values: unknown[],
  mode: "force_custom_plan" | "force_generic_plan",
): Promise<string[]> {
  return onOneConnection(orm, async (client) => {
    await client.query(`SET plan_cache_mode = ${mode}`);
    try {
      const [row] = (await client.query<{ "QUERY PLAN": unknown }>({ text: `EXPLAIN (FORMAT JSON) ${text}`, values }))
        .rows;
      const nodes: string[] = [];
      const walk = (n: { "Node Type": string; "Relation Name"?: string; Plans?: unknown[] }) => {
        nodes.push(`${n["Node Type"]}${n["Relation Name"] ? ` on ${n["Relation Name"]}` : ""}`);
        for (const child of n.Plans ?? []) walk(child as typeof n);
      };
      walk((row!["QUERY PLAN"] as [{ Plan: Parameters<typeof walk>[0] }])[0].Plan);
      return nodes;
    } finally {
      await client.query("RESET plan_cache_mode");
    }
  });
}

let statements = 0;

/**
 * How PostgreSQL planned `text` run once per entry of `executions` (each one execution's values), in
 * order, as one named prepared statement on one pooled connection: its custom plans (planned for
 * the values) and generic plans (the cached one reused). A prepared statement that keeps its plan
 * makes five custom plans and then only generic ones; one planned again on every execution makes
 * only custom plans (shared/src/db/prepared-read.ts `idList` says when that happens).
 *
 * @example
 * expect(await planCounts(orm, statement.text, batches.map((ids) => [idList(ids)]))).toEqual({ custom: 5, generic: 15 });
 */
export function planCounts(
  orm: Database,
  text: string,
  executions: readonly unknown[][],
): Promise<{ custom: number; generic: number }> {
  // A name of its own: the counts are this call's executions only, whatever the connection ran before.
  const name = `plan_count_${process.pid}_${++statements}`;
  return onOneConnection(orm, async (client) => {
    for (const values of executions) await client.query({ name, text, values });
    const [plans] = (
      await client.query<{ custom: number; generic: number }>({
        text: "SELECT custom_plans::int AS custom, generic_plans::int AS generic FROM pg_prepared_statements WHERE name = $1",
        values: [name],
      })
    ).rows;
    await client.query(`DEALLOCATE ${name}`);
    return plans!;
  });
}
