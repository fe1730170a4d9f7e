import { routeIn } from "@flowstate/contracts/rest/route";
import { notifyRoutes } from "@flowstate/contracts/rest/routes";
import { mountRoute } from "@flowstate/shared/http/mount-route";
import type { NotifyApp } from "../http/env.ts";
import { listDeliveries } from "../verbs/list-deliveries.ts";

export function mountDeliveriesList(app: NotifyApp): void {
  mountRoute(app, routeIn(notifyRoutes, "notifications.deliveries.list"), async ({ params, query }, c) => ({
    status: 200,
    body: await listDeliveries(c.get("call"), params.id, params.endpoint_id, query),
  }));
}
