import type { ReceivedInvitation } from "@flowstate/contracts/rest/identity/invitations";
import { emit, inTransaction, now, type ServiceContext } from "../context.ts";
import { requireUser } from "./lib/guards.ts";
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
    invitation.status = "declined";
    invitation.responded_at = now(ctx);
    const { tenant_id, kind } = invitation;
    emit(
      ctx,
      em,
      "InvitationDeclined.v1",
      { invitation_id: invitation.id, tenant_id, kind },
      { tenant_id, subject: sub },
    );
    await em.flush();
    return (await receivedInvitations(ctx, em, "i.id = ?", [invitation.id]))[0]!;
  });
}
