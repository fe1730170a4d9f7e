import type { EntityManager } from "@mikro-orm/postgresql";
import { UserSession } from "../db/entities.ts";
import type { Harness } from "./harness.ts";

/**
 * A sign-out elsewhere that has revoked the session row and not committed yet: its transaction
 * holds the row lock until `commit()`, which ends it and resolves once it has committed. For tests
 * that a write meeting it waits, then is refused (the two serialise).
 *
 * @example
 * const signOut = await signOutInFlight(h, user.sid);
 * const write = h.call(...); // must not answer yet
 * await signOut.commit();     // now it answers 401 SESSION_REVOKED
 */
export async function signOutInFlight(h: Harness, sid: string): Promise<{ commit(): Promise<void> }> {
  let release!: () => void;
  const gate = new Promise<void>((resolve) => {
    release = resolve;
  });
  let locked!: () => void;
  const held = new Promise<void>((resolve) => {
    locked = resolve;
  });
  const revocation = h.deps.orm.em.fork().transactional(async (em) => {
    const s = await (em as EntityManager).findOneOrFail(UserSession, { sid });
    s.revoked_at = new Date();
    s.revoked_reason = "signout";
    await em.flush();
    locked();
    await gate;
  });
  await held;
  return {
    commit() {
      release();
      return revocation;
    },
  };
}
