import { NotificationEndpointId } from "@flowstate/contracts/ids";
import { notifyRoutes } from "@flowstate/contracts/rest/notify/routes";
import { routeIn } from "@flowstate/contracts/rest/route";
import { defineTool, tenantPath } from "./tool.ts";

/** `enable_notification_endpoint(endpoint_id)` (issue 25): POST …/endpoints/{endpoint_id}/enable (admins). */
export const enableNotificationEndpoint = defineTool({
  name: "enable_notification_endpoint",
  description: "Enables an endpoint disabled for failing; new messages reach it from now on (replay what it missed).",
  route: routeIn(notifyRoutes, "notifications.endpoints.enable"),
  scope: "marketplace:write",
  person: false,
  input: { endpoint_id: NotificationEndpointId.describe("e.g. whe_…") },
  annotations: {
    title: "Enable a notification endpoint",
    readOnlyHint: false,
    destructiveHint: false,
    // An enabled endpoint stays enabled; nothing is sent by the call itself.
    idempotentHint: true,
    openWorldHint: false,
  },
  request: ({ endpoint_id }, tenantId) => ({
    path: tenantPath(tenantId, `/notifications/endpoints/${encodeURIComponent(endpoint_id)}/enable`),
  }),
});
