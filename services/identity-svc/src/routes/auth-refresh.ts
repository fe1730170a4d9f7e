import { routeIn } from "@flowstate/contracts/rest/route";
import { identityRoutes } from "@flowstate/contracts/rest/routes";
import { mountRoute, NO_STORE } from "@flowstate/shared/http/mount-route";
import type { IdentityApp } from "../http/env.ts";
import { refreshTokens } from "../verbs/refresh-tokens.ts";

export function mountAuthRefresh(app: IdentityApp): void {
  mountRoute(app, routeIn(identityRoutes, "auth.refresh"), async ({ body }, c) => ({
    status: 200,
    body: await refreshTokens({ ctx: c.get("ctx"), input: body }),
    headers: NO_STORE,
  }));
}
