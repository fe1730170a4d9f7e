import type { ReceivedInvitation } from "@flowstate/contracts/rest/identity/invitations";
import { inTransaction, type ServiceContext } from "../context.ts";
import { requireUser } from "./lib/guards.ts";
import { closeInvitation } from "./lib/invitation-lifecycle.ts";
import { lockOpenInvitation, receivedInvitations } from "./lib/my-invitation.ts";

/** The invitee says no: the invitation closes, nothing else changes. */
export async function declineInvitation({
  ctx,
  invitationId,
}: {
  ctx: ServiceContext;
  invitationId: string;
}): Promise<ReceivedInvitation> {
  const { sub } = requireUser(ctx);
  return inTransaction(ctx, async (em) => {
    const { invitation } = await lockOpenInvitation(ctx, em, invitationId, sub);
    closeInvitation(ctx, em, invitation, "declined", sub);
    await em.flush();
    return (await receivedInvitations(ctx, em, "i.id = ?", [invitation.id]))[0]!;
  });
}
