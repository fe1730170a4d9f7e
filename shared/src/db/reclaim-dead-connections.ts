import type { EventEmitter } from "node:events";

/** The part of a `pg` pool client this needs (pg-pool sets `release` on every checkout). */
type PooledClient = EventEmitter & { release?: (err?: Error) => void };

/**
 * Gives back to the pool a checked-out connection whose socket has ended: pg-pool then drops it and
 * opens a fresh one when needed.
 *
 * Why: when PostgreSQL ends a connection in the middle of a transaction (a failover, a restart, an
 * administrator's pg_terminate_backend), MikroORM rolls back through Kysely, whose rollback throws on
 * the dead connection before it releases it. The connection then stays checked out forever: one
 * pool slot lost per cut transaction, until the pool is empty and every request waits (found by the
 * fault suite, scripts/faults: the pool never closed again). The holder's own later release, if
 * any, becomes a no-op instead of pg-pool's double-release error.
 */
export function reclaimDeadConnections(pool: EventEmitter): void {
  const checkedOut = new Set<PooledClient>();
  pool.on("connect", (client: PooledClient) => {
    client.once("end", () => {
      if (!checkedOut.delete(client)) return; // idle: pg-pool removes it itself
      const release = client.release;
      client.release = () => {};
      release?.(new Error("the database connection ended while in use"));
    });
  });
  pool.on("acquire", (client: PooledClient) => checkedOut.add(client));
  pool.on("release", (_err: unknown, client: PooledClient) => checkedOut.delete(client));
}
