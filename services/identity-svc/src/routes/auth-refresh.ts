import { routeIn } from "@flowstate/contracts/rest/route";
import { identityRoutes } from "@flowstate/contracts/rest/routes";
import { mountRoute } from "@flowstate/shared/http/mount-route";
import type { IdentityApp } from "../http/env.ts";
import { refreshTokens } from "../verbs/refresh-tokens.ts";

// RFC 6749 section 5.1: token answers are never cached.
const NO_STORE = { "cache-control": "no-store" };

export function mountAuthRefresh(app: IdentityApp): void {
  mountRoute(app, routeIn(identityRoutes, "auth.refresh"), async ({ body }, c) => ({
    status: 200,
    body: await refreshTokens({ ctx: c.get("ctx"), input: body }),
    headers: NO_STORE,
  }));
}
