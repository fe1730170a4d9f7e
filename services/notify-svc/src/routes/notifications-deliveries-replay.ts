import { routeIn } from "@flowstate/contracts/rest/route";
import { notifyRoutes } from "@flowstate/contracts/rest/routes";
import { mountRoute } from "@flowstate/shared/http/mount-route";
import type { NotifyApp } from "../http/env.ts";
import { replayDelivery } from "../verbs/replay-delivery.ts";

export function mountDeliveriesReplay(app: NotifyApp): void {
  mountRoute(app, routeIn(notifyRoutes, "notifications.deliveries.replay"), async ({ params }, c) => ({
    status: 202,
    body: await replayDelivery(c.get("call"), params.id, params.endpoint_id, params.delivery_id),
  }));
}
