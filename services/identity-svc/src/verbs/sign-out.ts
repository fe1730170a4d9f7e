import { LockMode } from "@mikro-orm/postgresql";
import { inTransaction, type ServiceContext } from "../context.ts";
import { UserSession } from "../db/entities.ts";
import { requireUser } from "./lib/guards.ts";
import { revokeSession } from "./revoke-session.ts";

/** Ends the caller's session: its refresh tokens stop working and its access tokens fail the session check. */
export async function signOut({ ctx }: { ctx: ServiceContext }): Promise<void> {
  const { sub, sid } = requireUser(ctx);
  await inTransaction(ctx, async (em) => {
    const session = await em.findOne(UserSession, { sid, sub }, { lockMode: LockMode.PESSIMISTIC_WRITE });
    if (session) revokeSession(ctx, em, session, "signout");
  });
  // Invalidate even when it was already revoked: the gateway may still hold it as active.
  ctx.invalidations.push({ scope: "session", sid, sub });
}
