import { UserSession } from "../db/entities.ts";
import type { Harness } from "./harness.ts";
import { type HeldTransaction, holdTransaction } from "./held-transaction.ts";

/**
 * A sign-out elsewhere that has revoked the session row and not committed yet: its transaction
 * holds the row lock until `commit()`. For tests that a write meeting it waits, then is refused (the
 * two serialise).
 *
 * @example
 * const signOut = await signOutInFlight(h, user.sid);
 * const write = h.call(...); // must not answer yet
 * await signOut.commit();     // now it answers 401 SESSION_REVOKED
 */
export async function signOutInFlight(h: Harness, sid: string): Promise<HeldTransaction> {
  const signOut = holdTransaction(h, async (em) => {
    const s = await em.findOneOrFail(UserSession, { sid });
    s.revoked_at = new Date();
    s.revoked_reason = "signout";
    await em.flush();
  });
  await signOut.held;
  return signOut;
}
