import type { EntityManager } from "@mikro-orm/postgresql";
import type { Logger } from "../log/logger.ts";

/**
 * One schema migration. `up` is SQL (several statements allowed) or a function given the
 * transaction's EntityManager. It runs with `search_path` set to the service schema, so write
 * unqualified names: `CREATE TABLE tenant (…)`. Never edit or rename a migration once shipped;
 * add a new one.
 *
 * @example
 * const migrations: Migration[] = [{ name: "0001_tenant", up: "CREATE TABLE tenant (id text PRIMARY KEY)" }];
 */
export interface Migration {
  name: string;
  up: string | ((em: EntityManager) => Promise<void>);
}

/** Schema names are interpolated into SQL, so only plain lower-case identifiers are accepted. */
export const SCHEMA_NAME = /^[a-z_][a-z0-9_]{0,47}$/;

export function assertSchemaName(schema: string): void {
  if (!SCHEMA_NAME.test(schema))
    throw new Error(`invalid schema name ${JSON.stringify(schema)}: expected ${SCHEMA_NAME}`);
}

/**
 * Applies the pending migrations of one schema.
 *
 * Why a small runner instead of MikroORM's Migrator: the Migrator discovers class files, runs each
 * migration in its own transaction and takes no cross-process lock, so two replicas (or two test
 * files) opening the same schema race on `CREATE TABLE`. Here everything — creating the schema,
 * the bookkeeping table, every pending migration — runs in ONE transaction that first takes a
 * transaction-scoped advisory lock keyed on the schema. A second opener blocks on the lock, then
 * sees the rows the first committed and applies nothing; a failing migration rolls back whole
 * (PostgreSQL DDL is transactional) and the lock is released with the transaction, even if the
 * process dies.
 */
export async function runMigrations(
  em: EntityManager,
  schema: string,
  migrations: readonly Migration[],
  logger?: Logger,
): Promise<string[]> {
  assertSchemaName(schema);
  const seen = new Set<string>();
  for (const m of migrations) {
    if (seen.has(m.name)) throw new Error(`duplicate migration name ${m.name}`);
    seen.add(m.name);
  }
  return em.fork().transactional(async (tx) => {
    await tx.execute("SELECT pg_advisory_xact_lock(hashtext('flowstate.migrate'), hashtext(?))", [schema]);
    // Only when missing: CREATE SCHEMA IF NOT EXISTS needs CREATE on the database even when the
    // schema exists, which a service's own role does not get (service-roles.ts).
    const [found] = await tx.execute<{ n: number }[]>("SELECT count(*)::int AS n FROM pg_namespace WHERE nspname = ?", [
      schema,
    ]);
    if (!found?.n) await tx.execute(`CREATE SCHEMA IF NOT EXISTS "${schema}"`);
    await tx.execute(`SET LOCAL search_path TO "${schema}"`);
    await tx.execute(
      "CREATE TABLE IF NOT EXISTS schema_migration (name text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())",
    );
    const rows = await tx.execute<{ name: string }[]>("SELECT name FROM schema_migration");
    const applied = new Set(rows.map((r) => r.name));
    const ran: string[] = [];
    for (const m of migrations) {
      if (applied.has(m.name)) continue;
      if (typeof m.up === "string") await tx.execute(m.up);
      else await m.up(tx);
      await tx.execute("INSERT INTO schema_migration (name) VALUES (?)", [m.name]);
      ran.push(m.name);
    }
    if (ran.length) logger?.info({ schema, migrations: ran }, "migrations applied");
    return ran;
  });
}
