import { routeIn } from "@flowstate/contracts/rest/route";
import { identityRoutes } from "@flowstate/contracts/rest/routes";
import { mountRoute } from "@flowstate/shared/http/mount-route";
import type { IdentityApp } from "../http/env.ts";
import { signOut } from "../verbs/sign-out.ts";

export function mountAuthSignout(app: IdentityApp): void {
  mountRoute(app, routeIn(identityRoutes, "auth.signout"), async (_, c) => {
    await signOut({ ctx: c.get("ctx") });
    return { status: 204 };
  });
}
