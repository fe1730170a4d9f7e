import { NotificationEndpointId } from "@flowstate/contracts/ids";
import { notifyRoutes } from "@flowstate/contracts/rest/notify/routes";
import { routeIn } from "@flowstate/contracts/rest/route";
import { defineTool, tenantPath } from "./tool.ts";

/** `rotate_notification_endpoint_secret(endpoint_id)` (issue 25): POST …/endpoints/{endpoint_id}/rotate-secret (admins). */
export const rotateNotificationEndpointSecret = defineTool({
  name: "rotate_notification_endpoint_secret",
  description:
    "Gives a webhook a new whsec_ secret, returned once; the previous one keeps signing beside it for 24 hours.",
  route: routeIn(notifyRoutes, "notifications.endpoints.rotate_secret"),
  scope: "marketplace:write",
  person: false,
  input: { endpoint_id: NotificationEndpointId.describe("e.g. whe_…") },
  annotations: {
    title: "Rotate a notification endpoint's secret",
    readOnlyHint: false,
    // The previous secret stops signing after 24 hours: a receiver not given the new one then refuses every message.
    destructiveHint: true,
    idempotentHint: false,
    openWorldHint: false,
  },
  request: ({ endpoint_id }, tenantId) => ({
    path: tenantPath(tenantId, `/notifications/endpoints/${encodeURIComponent(endpoint_id)}/rotate-secret`),
  }),
});
