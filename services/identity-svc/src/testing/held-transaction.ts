import type { EntityManager } from "@mikro-orm/postgresql";
import type { Harness } from "./harness.ts";

export interface HeldTransaction {
  /** Resolves once `work` has run: from then on its locks are held. */
  held: Promise<void>;
  /** Ends the transaction; resolves once it has committed. */
  commit(): Promise<void>;
}

/**
 * Runs `work` in a transaction of its own and keeps the transaction open, its locks held, until
 * `commit()`: for tests that another request waits for those locks (or does not).
 *
 * @example
 * const other = holdTransaction(h, (em) => em.execute("SELECT id FROM ... FOR UPDATE", [id]));
 * await other.held;
 * ... // a request that must wait
 * await other.commit();
 */
export function holdTransaction(h: Harness, work: (em: EntityManager) => Promise<unknown>): HeldTransaction {
  let release!: () => void;
  const gate = new Promise<void>((resolve) => {
    release = resolve;
  });
  let locked!: () => void;
  const held = new Promise<void>((resolve) => {
    locked = resolve;
  });
  const done = h.deps.orm.em.fork().transactional(async (em) => {
    await work(em as EntityManager);
    locked();
    await gate;
  });
  return {
    held,
    commit() {
      release();
      return done;
    },
  };
}
