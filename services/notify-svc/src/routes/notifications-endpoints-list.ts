import { routeIn } from "@flowstate/contracts/rest/route";
import { notifyRoutes } from "@flowstate/contracts/rest/routes";
import { mountRoute } from "@flowstate/shared/http/mount-route";
import type { NotifyApp } from "../http/env.ts";
import { listEndpoints } from "../verbs/list-endpoints.ts";

export function mountEndpointsList(app: NotifyApp): void {
  mountRoute(app, routeIn(notifyRoutes, "notifications.endpoints.list"), async ({ params }, c) => ({
    status: 200,
    body: await listEndpoints(c.get("call"), params.id),
  }));
}
