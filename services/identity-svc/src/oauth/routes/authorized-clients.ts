import { routeIn } from "@flowstate/contracts/rest/route";
import { identityRoutes } from "@flowstate/contracts/rest/routes";
import { mountRoute } from "@flowstate/shared/http/mount-route";
import type { IdentityApp } from "../../http/env.ts";
import { listAuthorizedClients, revokeAuthorizedClient } from "../verbs/authorized-clients.ts";

/** GET /v1/users/me/authorized-clients. */
export function mountAuthorizedClientsList(app: IdentityApp): void {
  mountRoute(app, routeIn(identityRoutes, "users.me.authorized_clients.list"), async (_, c) => ({
    status: 200,
    body: await listAuthorizedClients({ ctx: c.get("ctx") }),
  }));
}

/** DELETE /v1/users/me/authorized-clients/{client_ref}. */
export function mountAuthorizedClientsRevoke(app: IdentityApp): void {
  mountRoute(app, routeIn(identityRoutes, "users.me.authorized_clients.revoke"), async ({ params }, c) => {
    await revokeAuthorizedClient({ ctx: c.get("ctx"), clientRef: params.client_ref });
    return { status: 204 };
  });
}
