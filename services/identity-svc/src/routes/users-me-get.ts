import { routeIn } from "@flowstate/contracts/rest/route";
import { identityRoutes } from "@flowstate/contracts/rest/routes";
import { mountRoute } from "@flowstate/shared/http/mount-route";
import type { IdentityApp } from "../http/env.ts";
import { getProfile } from "../verbs/get-profile.ts";

export function mountUsersMeGet(app: IdentityApp): void {
  mountRoute(app, routeIn(identityRoutes, "users.me.get"), async (_, c) => ({
    status: 200,
    body: await getProfile({ ctx: c.get("ctx") }),
  }));
}
