import { DeliveryId, NotificationEndpointId } from "@flowstate/contracts/ids";
import { notifyRoutes } from "@flowstate/contracts/rest/notify/routes";
import { routeIn } from "@flowstate/contracts/rest/route";
import { defineTool, tenantPath } from "./tool.ts";

/** `replay_notification_delivery(endpoint_id, delivery_id)` (issue 25): POST …/deliveries/{delivery_id}/replay (admins). */
export const replayNotificationDelivery = defineTool({
  name: "replay_notification_delivery",
  description: "Sends a logged message to its endpoint again, with the same webhook-id, as a new delivery.",
  route: routeIn(notifyRoutes, "notifications.deliveries.replay"),
  scope: "marketplace:write",
  person: false,
  input: {
    endpoint_id: NotificationEndpointId.describe("e.g. whe_…"),
    delivery_id: DeliveryId.describe("from list_notification_deliveries"),
  },
  annotations: {
    title: "Replay a notification delivery",
    readOnlyHint: false,
    destructiveHint: false,
    idempotentHint: false,
    openWorldHint: true,
  },
  request: ({ endpoint_id, delivery_id }, tenantId) => ({
    path: tenantPath(
      tenantId,
      `/notifications/endpoints/${encodeURIComponent(endpoint_id)}/deliveries/${encodeURIComponent(delivery_id)}/replay`,
    ),
  }),
});
