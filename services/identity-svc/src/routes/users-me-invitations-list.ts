import { routeIn } from "@flowstate/contracts/rest/route";
import { identityRoutes } from "@flowstate/contracts/rest/routes";
import { mountRoute } from "@flowstate/shared/http/mount-route";
import type { IdentityApp } from "../http/env.ts";
import { listMyInvitations } from "../verbs/list-my-invitations.ts";

export function mountUsersMeInvitationsList(app: IdentityApp): void {
  mountRoute(app, routeIn(identityRoutes, "users.me.invitations.list"), async (_input, c) => ({
    status: 200,
    body: await listMyInvitations({ ctx: c.get("ctx") }),
  }));
}
