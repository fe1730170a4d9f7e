import { createHash } from "node:crypto";
import type { EntityManager } from "@mikro-orm/postgresql";
import { nativePool } from "./native-pool.ts";

/**
 * What a verb that writes in raw SQL needs of a transaction: run a statement written with `?`
 * placeholders (as `em.execute` takes them) and get its rows. Two implementations: `emRunner` (the
 * unit of work's own transaction, statements sent with their values inlined) and the runner
 * `inPreparedTransaction` passes (named prepared statements on one pooled connection).
 */
export interface SqlRunner {
  execute<R>(sql: string, params?: readonly unknown[]): Promise<R[]>;
}

/** Statements through `em` (its transaction when it is in one): for a verb composed into a larger unit of work. */
export const emRunner = (em: EntityManager): SqlRunner => ({
  execute: <R>(sql: string, params: readonly unknown[] = []) => em.execute<R[]>(sql, [...params]),
});

/** A statement as PostgreSQL prepares it: `$n` placeholders, and a name that only this text has. */
interface Prepared {
  name: string;
  text: string;
}
const prepared = new Map<string, Prepared>();
/** Statement texts remembered (their shapes are few: one per verb and number of rows); past it the map starts again. */
const MAX_REMEMBERED = 1_000;

/** `?` outside quoted literals becomes `$1`, `$2`…, as the extended protocol numbers parameters. */
function prepare(sql: string): Prepared {
  let statement = prepared.get(sql);
  if (!statement) {
    let n = 0;
    const text = sql.replace(/'(?:[^']|'')*'|\?/g, (m) => (m === "?" ? `$${++n}` : m));
    statement = { name: `fs_${createHash("sha256").update(text).digest("base64url").slice(0, 32)}`, text };
    if (prepared.size >= MAX_REMEMBERED) prepared.clear();
    prepared.set(sql, statement);
  }
  return statement;
}

/**
 * Runs `fn` in a transaction of its own on one connection of the ORM's `pg` pool, each statement
 * as a named prepared statement (named by a hash of its text, so each connection parses and plans
 * a statement once). Why: MikroORM sends every `em.execute` as one text with its values inlined,
 * which PostgreSQL parses and plans on every call; for a tenant write's lock statement (a five-table
 * join FOR UPDATE) and its change with the outbox row, that was about 45% of the write's database
 * CPU (190 µs of 435 per rename, measured against the bench database). Commits when `fn` resolves,
 * rolls back when it throws; a connection whose ROLLBACK fails is destroyed, not returned to the pool.
 * Statements made through `em` are NOT in this transaction: a verb that needs the unit of work uses
 * `ctx.em.transactional` and `emRunner` instead.
 *
 * @example
 * const renamed = await inPreparedTransaction(em, async (sql) => {
 *   await sql.execute(`UPDATE "identity"."tenant" SET name = ? WHERE id = ?`, [name, id]);
 * });
 */
export async function inPreparedTransaction<T>(em: EntityManager, fn: (sql: SqlRunner) => Promise<T>): Promise<T> {
  const client = await (await nativePool(em)).connect();
  const sql: SqlRunner = {
    execute: async <R>(text: string, params: readonly unknown[] = []) => {
      const statement = prepare(text);
      return (await client.query<R>({ name: statement.name, text: statement.text, values: [...params] })).rows;
    },
  };
  try {
    await client.query("BEGIN");
  } catch (err) {
    client.release(err as Error);
    throw err;
  }
  let broken: Error | undefined;
  try {
    const result = await fn(sql);
    await client.query("COMMIT");
    return result;
  } catch (err) {
    await client.query("ROLLBACK").catch((rollback: Error) => {
      broken = rollback;
    });
    throw err;
  } finally {
    client.release(broken);
  }
}
