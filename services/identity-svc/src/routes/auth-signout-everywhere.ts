import { routeIn } from "@flowstate/contracts/rest/route";
import { identityRoutes } from "@flowstate/contracts/rest/routes";
import { mountRoute } from "@flowstate/shared/http/mount-route";
import type { IdentityApp } from "../http/env.ts";
import { signOutEverywhere } from "../verbs/sign-out-everywhere.ts";

export function mountAuthSignoutEverywhere(app: IdentityApp): void {
  mountRoute(app, routeIn(identityRoutes, "auth.signout_everywhere"), async (_, c) => {
    await signOutEverywhere({ ctx: c.get("ctx") });
    return { status: 204 };
  });
}
