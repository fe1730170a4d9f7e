import type { ReceivedInvitation } from "@flowstate/contracts/rest/identity/invitations";
import type { ServiceContext } from "../context.ts";
import { closeInvitation } from "./lib/invitation-lifecycle.ts";
import { answerInvitation } from "./lib/my-invitation.ts";

/** The invitee says no: the invitation closes, nothing else changes. */
export async function declineInvitation({
  ctx,
  invitationId,
}: {
  ctx: ServiceContext;
  invitationId: string;
}): Promise<ReceivedInvitation> {
  return answerInvitation(ctx, invitationId, async (em, invitation, sub) => {
    closeInvitation(ctx, em, invitation, "declined", sub);
    return [];
  });
}
