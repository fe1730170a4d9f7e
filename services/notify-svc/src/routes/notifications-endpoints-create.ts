import { routeIn } from "@flowstate/contracts/rest/route";
import { notifyRoutes } from "@flowstate/contracts/rest/routes";
import { mountRoute } from "@flowstate/shared/http/mount-route";
import type { NotifyApp } from "../http/env.ts";
import { createEndpoint } from "../verbs/create-endpoint.ts";

export function mountEndpointsCreate(app: NotifyApp): void {
  mountRoute(app, routeIn(notifyRoutes, "notifications.endpoints.create"), async ({ params, body }, c) => ({
    status: 201,
    body: await createEndpoint(c.get("call"), params.id, body),
  }));
}
