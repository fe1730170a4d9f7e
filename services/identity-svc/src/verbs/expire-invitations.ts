import { LockMode } from "@mikro-orm/postgresql";
import { inTransaction, now, type ServiceContext } from "../context.ts";
import { Invitation } from "../db/entities.ts";
import { closeInvitation } from "./lib/invitation-lifecycle.ts";

/**
 * Housekeeping: closes open invitations past their seven days, in batches, each with its
 * InvitationExpired event (actor: the system). An expired invitation is refused at answer time
 * whether or not this has run yet (lockOpenInvitation); this only makes the state and the event
 * trail say so. SKIP LOCKED lets replicas share the work and never waits on an answer in progress.
 */
export async function expireInvitations({
  ctx,
  batch = 100,
}: {
  ctx: ServiceContext;
  batch?: number;
}): Promise<number> {
  return inTransaction(ctx, async (em) => {
    const due = await em.find(
      Invitation,
      { status: "pending", expires_at: { $lte: now(ctx) } },
      { limit: batch, orderBy: { expires_at: "asc" }, lockMode: LockMode.PESSIMISTIC_PARTIAL_WRITE },
    );
    for (const invitation of due) closeInvitation(ctx, em, invitation, "expired");
    return due.length;
  });
}
