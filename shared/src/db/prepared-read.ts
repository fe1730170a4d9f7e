import type { EntityManager } from "@mikro-orm/postgresql";
import { nativePool } from "./native-pool.ts";

/** A read statement written with `$1, $2…` placeholders, prepared once per pooled connection under `name`. */
export interface PreparedStatement {
  name: string;
  text: string;
}

/**
 * A list parameter of a prepared statement, as one JSON array (`jsonb_array_elements_text($1::jsonb)`)
 * rather than a `text[]`. Why: for an array PostgreSQL's custom plan knows how many elements there
 * are and the generic plan does not (`unnest` of a parameter is 100 rows to it), so every custom plan
 * looked cheaper than the generic one and each execution of the prepared statement was planned
 * again: 258 µs of planning per 97 µs of identity-svc's grouped tenant read, 414 per members read
 * (pg_stat_statements over bench/40-gateway.bench.ts). A JSON array is 100 rows to both, so after
 * PostgreSQL's five custom plans the generic one is kept (identity-svc's tenant-reads.test.ts counts them).
 * A null element is a JSON null: `jsonb_array_elements_text` answers SQL NULL for it, which equals nothing.
 */
export const idList = (ids: readonly (string | null)[]) => JSON.stringify(ids);

/**
 * Runs a hot read as a named prepared statement on the ORM's own `pg` pool. Why: MikroORM sends
 * every query unnamed, so PostgreSQL parses and plans it each time; for a three-table join that
 * planning is most of the server's work (pgbench here: 12.8k unnamed vs 46k prepared executions/s).
 * Inside a transaction the read joins the transaction's connection through `em.execute` instead
 * (unprepared), so a verb composed into a larger transaction still sees its own writes.
 *
 * @example
 * const byId: PreparedStatement = { name: "tenant_by_id", text: `SELECT name FROM "identity"."tenant" WHERE id = $1` };
 * const [row] = await preparedRead<{ name: string }>(em, byId, [tenantId]);
 */
export async function preparedRead<R>(
  em: EntityManager,
  statement: PreparedStatement,
  values: unknown[],
): Promise<R[]> {
  if (em.isInTransaction()) return em.execute<R[]>(statement.text.replace(/\$\d+/g, "?"), values);
  const pool = await nativePool(em);
  return (await pool.query<R>({ name: statement.name, text: statement.text, values })).rows;
}
