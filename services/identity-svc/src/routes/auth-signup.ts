import { routeIn } from "@flowstate/contracts/rest/route";
import { identityRoutes } from "@flowstate/contracts/rest/routes";
import { mountRoute } from "@flowstate/shared/http/mount-route";
import type { IdentityApp } from "../http/env.ts";
import { signUp } from "../verbs/sign-up.ts";

export function mountAuthSignup(app: IdentityApp): void {
  mountRoute(app, routeIn(identityRoutes, "auth.signup"), async ({ body }, c) => ({
    status: 201,
    body: await signUp({ ctx: c.get("ctx"), input: body }),
  }));
}
