import { NotificationEndpointId } from "@flowstate/contracts/ids";
import { notifyRoutes } from "@flowstate/contracts/rest/notify/routes";
import { routeIn } from "@flowstate/contracts/rest/route";
import { defineTool, tenantPath } from "./tool.ts";

/** `delete_notification_endpoint(endpoint_id)` (issue 25): DELETE …/endpoints/{endpoint_id} (admins). */
export const deleteNotificationEndpoint = defineTool({
  name: "delete_notification_endpoint",
  description: "Removes an endpoint; its pending deliveries are dropped.",
  route: routeIn(notifyRoutes, "notifications.endpoints.delete"),
  scope: "marketplace:write",
  person: false,
  input: { endpoint_id: NotificationEndpointId.describe("e.g. whe_…") },
  annotations: {
    title: "Delete a notification endpoint",
    readOnlyHint: false,
    destructiveHint: true,
    // A deleted endpoint stays deleted: a repeat changes nothing (it answers NOT_FOUND).
    idempotentHint: true,
    openWorldHint: false,
  },
  request: ({ endpoint_id }, tenantId) => ({
    path: tenantPath(tenantId, `/notifications/endpoints/${encodeURIComponent(endpoint_id)}`),
  }),
});
