import { randomBytes } from "node:crypto";
import type { Logger } from "../log/logger.ts";
import type { Migration } from "./migrate.ts";
import { type Database, type OpenDatabaseOptions, openDatabase } from "./open-database.ts";

export interface TestDatabase {
  orm: Database;
  schema: string;
  url: string;
  /**
   * Another pool on the same schema with ONE connection (closed by the caller): whether a
   * transaction gave its connection back, or a wait for it times out, shows at once.
   */
  oneConnection(options?: { acquireTimeoutMs?: number }): Promise<Database>;
  /** Closes the ORM and drops the schema with everything in it. */
  close(): Promise<void>;
}

/**
 * Opens a throwaway schema (`t_<prefix>_<random>`) on DATABASE_URL for one test file or test, so
 * tests run in parallel and in any order without seeing each other's rows.
 *
 * @example
 * const db = await openTestDatabase({ prefix: "tenants", entities: [Tenant], migrations });
 * afterAll(() => db.close());
 */
export async function openTestDatabase(
  options: {
    prefix?: string;
    entities?: OpenDatabaseOptions["entities"];
    migrations?: readonly Migration[];
    logger?: Logger;
    url?: string;
  } = {},
): Promise<TestDatabase> {
  const url = options.url ?? process.env.DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/flowstate_test";
  const prefix = (options.prefix ?? "test")
    .toLowerCase()
    .replace(/[^a-z0-9_]/g, "_")
    .slice(0, 20);
  const schema = `t_${prefix}_${randomBytes(6).toString("hex")}`;
  const orm = await openDatabase({
    url,
    schema,
    entities: options.entities ?? [],
    migrations: options.migrations ?? [],
    pool: { max: 5 },
    ...(options.logger ? { logger: options.logger } : {}),
  });
  return {
    orm,
    schema,
    url,
    oneConnection: (o = {}) =>
      openDatabase({ url, schema, entities: [], migrations: [], migrate: false, pool: { max: 1 }, ...o }),
    async close() {
      await orm.em.fork().execute(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
      await orm.close();
    },
  };
}
