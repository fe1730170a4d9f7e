import { LockMode } from "@mikro-orm/postgresql";
import { inTransaction, now, type ServiceContext } from "../context.ts";
import { User, UserSession } from "../db/entities.ts";
import { OAuthCode } from "../oauth/db/entities.ts";
import { requireUser } from "./lib/guards.ts";
import { revokeSession } from "./revoke-session.ts";

/**
 * Sign out everywhere: ends every live session of the caller's account, REST sign-ins and OAuth
 * grants alike (a grant's token family is a `user_session` row), and spends the account's
 * unexchanged authorization codes so no grant is born from a consent given just before. Each
 * session announces AccessRevoked(session) in the same transaction and is named in the answer's
 * invalidations, so every gateway instance drops it. API keys are tenant credentials, not
 * sessions, and stay. `tokens_valid_after` is not moved: with its one-second resolution a sign-in
 * in the same second would be refused too.
 */
export async function signOutEverywhere({ ctx }: { ctx: ServiceContext }): Promise<void> {
  const { sub, sid } = requireUser(ctx);
  const ended = await inTransaction(ctx, async (em) => {
    // FOR UPDATE: sign-in and the code exchange lock the row FOR SHARE, so no session is opened
    // between the sweep below and the commit.
    await em.findOne(User, { sub }, { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true });
    const sessions = await em.find(UserSession, { sub, revoked_at: null });
    const done = sessions.filter((s) => revokeSession(ctx, em, s, "signout_everywhere"));
    await em.nativeUpdate(OAuthCode, { sub, used_at: null }, { used_at: now(ctx) });
    return done.map((s) => s.sid);
  });
  // The caller's own session is named even when it had already ended: a gateway may still hold it.
  for (const s of new Set([sid, ...ended])) ctx.invalidations.push({ scope: "session", sid: s, sub });
}
