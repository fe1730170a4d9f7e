import { routeIn } from "@flowstate/contracts/rest/route";
import { identityRoutes } from "@flowstate/contracts/rest/routes";
import { mountRoute } from "@flowstate/shared/http/mount-route";
import type { IdentityApp } from "../http/env.ts";
import { acceptInvitation } from "../verbs/accept-invitation.ts";

export function mountUsersMeInvitationsAccept(app: IdentityApp): void {
  mountRoute(app, routeIn(identityRoutes, "users.me.invitations.accept"), async ({ params }, c) => ({
    status: 200,
    body: await acceptInvitation({ ctx: c.get("ctx"), invitationId: params.invitation_id }),
  }));
}
