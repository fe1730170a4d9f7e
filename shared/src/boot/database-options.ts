import type { OpenDatabaseOptions } from "../db/open-database.ts";
import type { Logger } from "../log/logger.ts";

/** The database variables of a service's configuration (DATABASE_POOL_MAX only where it has one). */
export interface DatabaseConfig {
  DATABASE_URL: string;
  DATABASE_SCHEMA: string;
  DATABASE_POOL_MAX?: number | undefined;
}

/**
 * The part of `openDatabase`'s options that comes from configuration; main.ts adds its entities
 * and migrations and keeps the `openDatabase(` call itself, which the residency manifest looks for
 * (deploy/residency/manifest.ts). Without DATABASE_POOL_MAX the pool keeps openDatabase's default.
 *
 * @example
 * const orm = await openDatabase({ ...databaseOptions(config, logger), entities, migrations });
 */
export function databaseOptions(
  config: DatabaseConfig,
  logger: Logger,
): Pick<OpenDatabaseOptions, "url" | "schema" | "logger" | "pool"> {
  return {
    url: config.DATABASE_URL,
    schema: config.DATABASE_SCHEMA,
    logger,
    ...(config.DATABASE_POOL_MAX === undefined ? {} : { pool: { max: config.DATABASE_POOL_MAX } }),
  };
}
