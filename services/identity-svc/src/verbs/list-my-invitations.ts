import type { ReceivedInvitationList } from "@flowstate/contracts/rest/identity/invitations";
import { now, type ServiceContext } from "../context.ts";
import { loadActiveUser } from "./get-profile.ts";
import { requireUser } from "./lib/guards.ts";
import { receivedInvitations } from "./lib/my-invitation.ts";

/**
 * The caller's open invitations: to their e-mail address (membership) or to them (ownership),
 * unanswered, unexpired, of tenants that still exist, newest first.
 */
export async function listMyInvitations({ ctx }: { ctx: ServiceContext }): Promise<ReceivedInvitationList> {
  const { sub } = requireUser(ctx);
  const me = await loadActiveUser(ctx.em, sub);
  const invitations = await receivedInvitations(
    ctx,
    ctx.em,
    `i.status = 'pending' AND i.expires_at > ? AND t.status = 'active'
     AND ((i.kind = 'membership' AND i.email_key = ?) OR (i.kind = 'ownership' AND i.invitee_sub = ?))`,
    [now(ctx), me.email_key, sub],
  );
  return { invitations };
}
