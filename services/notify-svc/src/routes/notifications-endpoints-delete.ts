import { routeIn } from "@flowstate/contracts/rest/route";
import { notifyRoutes } from "@flowstate/contracts/rest/routes";
import { mountRoute } from "@flowstate/shared/http/mount-route";
import type { NotifyApp } from "../http/env.ts";
import { deleteEndpoint } from "../verbs/delete-endpoint.ts";

export function mountEndpointsDelete(app: NotifyApp): void {
  mountRoute(app, routeIn(notifyRoutes, "notifications.endpoints.delete"), async ({ params }, c) => {
    await deleteEndpoint(c.get("call"), params.id, params.endpoint_id);
    return { status: 204 };
  });
}
