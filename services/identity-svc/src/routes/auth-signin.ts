import { routeIn } from "@flowstate/contracts/rest/route";
import { identityRoutes } from "@flowstate/contracts/rest/routes";
import { mountRoute, NO_STORE } from "@flowstate/shared/http/mount-route";
import type { IdentityApp } from "../http/env.ts";
import { signIn } from "../verbs/sign-in.ts";

export function mountAuthSignin(app: IdentityApp): void {
  mountRoute(app, routeIn(identityRoutes, "auth.signin"), async ({ body }, c) => ({
    status: 200,
    body: await signIn({ ctx: c.get("ctx"), input: body }),
    headers: NO_STORE,
  }));
}
