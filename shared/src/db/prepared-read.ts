import type { EntityManager } from "@mikro-orm/postgresql";

/** A read statement written with `$1, $2…` placeholders, prepared once per pooled connection under `name`. */
export interface PreparedStatement {
  name: string;
  text: string;
}

/** The slice of `pg`'s Pool used here (MikroORM exposes the pool untyped). */
interface NativePool {
  query<R>(config: { name: string; text: string; values: unknown[] }): Promise<{ rows: R[] }>;
}

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
  const pool = (await em.getConnection().getNativeClient()) as NativePool;
  return (await pool.query<R>({ name: statement.name, text: statement.text, values })).rows;
}
