import { routeIn } from "@flowstate/contracts/rest/route";
import { identityRoutes } from "@flowstate/contracts/rest/routes";
import { mountRoute } from "@flowstate/shared/http/mount-route";
import type { IdentityApp } from "../http/env.ts";
import { declineInvitation } from "../verbs/decline-invitation.ts";

export function mountUsersMeInvitationsDecline(app: IdentityApp): void {
  mountRoute(app, routeIn(identityRoutes, "users.me.invitations.decline"), async ({ params }, c) => ({
    status: 200,
    body: await declineInvitation({ ctx: c.get("ctx"), invitationId: params.invitation_id }),
  }));
}
