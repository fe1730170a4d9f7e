import { routeIn } from "@flowstate/contracts/rest/route";
import { notifyRoutes } from "@flowstate/contracts/rest/routes";
import { mountRoute } from "@flowstate/shared/http/mount-route";
import type { NotifyApp } from "../http/env.ts";
import { enableEndpoint } from "../verbs/enable-endpoint.ts";

export function mountEndpointsEnable(app: NotifyApp): void {
  mountRoute(app, routeIn(notifyRoutes, "notifications.endpoints.enable"), async ({ params }, c) => ({
    status: 200,
    body: await enableEndpoint(c.get("call"), params.id, params.endpoint_id),
  }));
}
