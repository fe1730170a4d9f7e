import { MikroORM, type Options } from "@mikro-orm/postgresql";
import type { Logger } from "../log/logger.ts";
import { OutboxEvent } from "../outbox/outbox-entity.ts";
import { assertSchemaName, type Migration, runMigrations } from "./migrate.ts";
import { platformMigrations } from "./platform-migrations.ts";
import { reclaimDeadConnections } from "./reclaim-dead-connections.ts";

export interface OpenDatabaseOptions {
  /** postgres://user@host:port/db — the DATABASE_URL of the runtime contract. */
  url: string;
  /** The service's own schema (`identity`, `privacy`, …); created when missing. */
  schema: string;
  /** The service's entities (`defineEntity` / `EntitySchema`); the platform's are added. */
  entities: NonNullable<Options["entities"]>;
  /** The service's migrations, in order; applied after the platform's. */
  migrations: readonly Migration[];
  logger?: Logger;
  /** Connection pool bounds; pg's default max is 10. */
  pool?: { min?: number; max?: number };
  /** How long a caller waits for a pooled connection before its statement fails (default 10 s). */
  acquireTimeoutMs?: number;
  /**
   * `false`: connect only. For a role that may not run DDL (audit-svc's insert-only role, whose
   * schema another role owns and migrates); `migrations` are then ignored.
   */
  migrate?: boolean;
}

export type Database = MikroORM;

/**
 * Opens the service's database: a MikroORM 7 instance on PostgreSQL whose entities live in
 * `schema`, after applying (under an advisory lock, see `runMigrations`) the platform tables
 * (outbox, processed events) and the service's migrations. Use a fork per unit of work
 * (`orm.em.fork()`); the global EntityManager is not for request code.
 *
 * @example
 * const orm = await openDatabase({ url: config.DATABASE_URL, schema: "identity", entities: [Tenant], migrations, logger });
 * await orm.em.fork().transactional(async (em) => {
 *   em.create(Tenant, { id, name });
 *   enqueueEvent(em, "TenantCreated.v1", { tenant_id: id, owner_sub: sub }, { source: "flowstate.identity" });
 * });
 * await orm.close();
 */
export async function openDatabase(options: OpenDatabaseOptions): Promise<Database> {
  assertSchemaName(options.schema);
  const orm = await MikroORM.init({
    clientUrl: options.url,
    schema: options.schema,
    entities: [...options.entities, OutboxEvent],
    pool: { min: 0, max: 10, ...options.pool },
    // pg waits for a free connection forever by default. Code that holds one connection while it
    // asks for a second (a transaction plus an autocommit claim) can then wait on itself for good
    // once every connection is held by such a waiter; with a bound the wait fails, the transaction
    // rolls back, its locks and connection are freed and the caller (a request, a queued event)
    // retries. Seen as a privacy export hanging forever in CI.
    driverOptions: {
      connectionTimeoutMillis: options.acquireTimeoutMs ?? 10_000,
      onPoolCreated: reclaimDeadConnections,
    },
    debug: false,
    // Entities come from the list above only: no folder scanning, no reflection (type stripping).
    discovery: { warnWhenNoEntities: false },
  });
  if (options.migrate === false) return orm;
  try {
    await runMigrations(orm.em, options.schema, [...platformMigrations, ...options.migrations], options.logger);
  } catch (err) {
    await orm.close();
    throw err;
  }
  return orm;
}

/** The schema an ORM opened by `openDatabase` works in. */
export function schemaOf(orm: Pick<Database, "config"> | { config: Pick<Database["config"], "get"> }): string {
  const schema = orm.config.get("schema");
  if (!schema) throw new Error("this ORM was not opened by openDatabase (no schema)");
  return schema;
}

/**
 * The /readyz check of a service with a database: throws when PostgreSQL does not answer.
 *
 * @example
 * createServiceApp({ name, logger, readiness: { database: databaseReady(deps.orm) } });
 */
export const databaseReady = (orm: Database) => async (): Promise<void> => {
  if (!(await orm.checkConnection()).ok) throw new Error("database unreachable");
};

/** SQLSTATEs of a connection lost or refused (class 08) or a server shutting down or restarting (57P0x). */
const CONNECTION_STATES = new Set(["08000", "08001", "08003", "08004", "08006", "57P01", "57P02", "57P03"]);
const CONNECTION_ERRNOS = new Set(["ECONNREFUSED", "ECONNRESET", "EPIPE", "ETIMEDOUT"]);
// pg's own words: the pool's acquire timeout, a socket closed under a query, the server ending the
// session, and a statement sent on a connection that was cut between two statements of a transaction.
const CONNECTION_MESSAGES =
  /timeout exceeded when trying to connect|connection terminated|terminating connection|connection error and is not queryable/i;

/**
 * True when a statement failed because the database could not be reached, not because of the
 * statement: no pooled connection freed up within the acquire timeout (see `openDatabase`), the
 * connection was cut (a failover, a restart, an administrator ending it), or the server refused it.
 * The service is then unavailable for a moment rather than broken: a request answers 503 with
 * Retry-After, and a queued event is retried.
 */
export function isDatabaseUnavailable(err: unknown): boolean {
  for (let e: unknown = err, depth = 0; e instanceof Error && depth < 4; e = e.cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === "string" && (CONNECTION_STATES.has(code) || CONNECTION_ERRNOS.has(code))) return true;
    if (CONNECTION_MESSAGES.test(e.message)) return true;
  }
  return false;
}
