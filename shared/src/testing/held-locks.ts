import type { EntityManager } from "@mikro-orm/postgresql";
import type { TestDatabase } from "../db/test-database.ts";

export interface HeldLocks {
  /** The held transaction, on a connection of its own: take the rows the requests will wait for. */
  em: EntityManager;
  /**
   * Resolves once `n` backends wait for a lock, for the held transaction or for another waiter
   * (a second request queued behind the first waits for that one, not for the holder). Fails the
   * test with `what` after ~10 s.
   */
  waiters(n: number, what: string): Promise<void>;
  /** Lets the waiters go. */
  commit(): Promise<void>;
  /** Closes both connections (rolling back if not committed). */
  close(): Promise<void>;
}

/**
 * For tests that make concurrent requests meet at a lock every time rather than by luck: a
 * transaction holding the rows they need, so each request waits there in turn, and a watcher
 * that sees them wait (by `pg_blocking_pids`, which also covers a wait at COMMIT for a deferred
 * key check, whose statement names no table). Both on connections of their own: the service's
 * pool is busy with the waiting requests, and a statement of the watcher's inside the service's
 * transaction context would join it.
 *
 * @example
 * const held = await holdLocks(h.db);
 * try {
 *   await held.em.execute(`SELECT 1 FROM ${table} WHERE id = ? FOR UPDATE`, [id]);
 *   const answers = Promise.all([request(), request()]);
 *   await held.waiters(2, "both requests wait for the row");
 *   await held.commit();
 *   assert.deepEqual(await answers, [200, 200]);
 * } finally {
 *   await held.close();
 * }
 */
export async function holdLocks(db: Pick<TestDatabase, "oneConnection">): Promise<HeldLocks> {
  const holder = await db.oneConnection();
  const watcher = await db.oneConnection();
  const em = holder.em.fork();
  // A transaction by hand on a pool of one connection, so every statement of `em` is in it.
  await em.execute("BEGIN");
  const [self] = await em.execute<{ pid: number }[]>("SELECT pg_backend_pid() AS pid");
  const waiting = async () => {
    const rows = await watcher.em
      .fork()
      .execute<{ pid: number; by: number[] }[]>(
        "SELECT pid, pg_blocking_pids(pid) AS by FROM pg_stat_activity WHERE wait_event_type = 'Lock'",
      );
    const behind = new Set([self!.pid]);
    for (let grew = true; grew; ) {
      grew = false;
      for (const row of rows)
        if (!behind.has(row.pid) && row.by.some((pid) => behind.has(pid))) {
          behind.add(row.pid);
          grew = true;
        }
    }
    return behind.size - 1;
  };
  return {
    em,
    async waiters(n, what) {
      for (let i = 0; (await waiting()) < n; i++) {
        if (i >= 1000) throw new Error(`${what}: fewer than ${n} waiting after 10 s`);
        await new Promise((r) => setTimeout(r, 10));
      }
    },
    async commit() {
      await em.execute("COMMIT");
    },
    async close() {
      await holder.close(true);
      await watcher.close(true);
    },
  };
}
