import type { EntityManager } from "@mikro-orm/postgresql";

/** A statement as `pg` takes it: plain text, or a named prepared statement with its values. */
export type PgQuery = string | { name?: string; text: string; values?: unknown[] };

/** The slice of a pooled `pg` client the platform uses (pg ships no types in this repo). */
export interface PooledClient {
  query<R = unknown>(query: PgQuery): Promise<{ rows: R[] }>;
  /** `destroy`: the connection is closed instead of returned (a failed ROLLBACK, a broken socket). */
  release(destroy?: boolean | Error): void;
}

/** The slice of `pg`'s Pool the platform uses. */
export interface NativePool {
  query<R = unknown>(query: PgQuery): Promise<{ rows: R[] }>;
  connect(): Promise<PooledClient>;
}

/**
 * The ORM's own `pg` pool (MikroORM exposes it untyped), for what the unit of work cannot send:
 * named prepared statements (prepared-read.ts, prepared-transaction.ts) and one-connection checks.
 */
export async function nativePool(em: EntityManager): Promise<NativePool> {
  return (await em.getConnection().getNativeClient()) as unknown as NativePool;
}
