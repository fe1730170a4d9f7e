import { routeIn } from "@flowstate/contracts/rest/route";
import { notifyRoutes } from "@flowstate/contracts/rest/routes";
import { mountRoute } from "@flowstate/shared/http/mount-route";
import type { NotifyApp } from "../http/env.ts";
import { rotateSecret } from "../verbs/rotate-secret.ts";

export function mountEndpointsRotateSecret(app: NotifyApp): void {
  mountRoute(app, routeIn(notifyRoutes, "notifications.endpoints.rotate_secret"), async ({ params }, c) => ({
    status: 200,
    body: await rotateSecret(c.get("call"), params.id, params.endpoint_id),
  }));
}
