import { internalIdentityRoutes } from "@flowstate/contracts/internal/routes";
import { routeIn } from "@flowstate/contracts/rest/route";
import { mountRoute } from "@flowstate/shared/http/mount-route";
import type { IdentityApp } from "../http/env.ts";
import { sessionState } from "../verbs/session-state.ts";

export function mountInternalSessionsGet(app: IdentityApp): void {
  mountRoute(app, routeIn(internalIdentityRoutes, "internal.sessions.get"), async ({ params, query }, c) => ({
    status: 200,
    body: await sessionState({ ctx: c.get("ctx"), sid: params.sid, iat: query.iat }),
  }));
}
