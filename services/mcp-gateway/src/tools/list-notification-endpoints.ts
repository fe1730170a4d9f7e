import { notifyRoutes } from "@flowstate/contracts/rest/notify/routes";
import { routeIn } from "@flowstate/contracts/rest/route";
import { defineTool, tenantPath } from "./tool.ts";

/** `list_notification_endpoints` (issue 25): GET notifications/endpoints (admins). */
export const listNotificationEndpoints = defineTool({
  name: "list_notification_endpoints",
  description:
    "Lists the tenant's notification endpoints (signed webhooks, Slack), their kinds and status. Admins only.",
  route: routeIn(notifyRoutes, "notifications.endpoints.list"),
  scope: "marketplace:read",
  person: false,
  input: {},
  annotations: {
    title: "List notification endpoints",
    readOnlyHint: true,
    destructiveHint: false,
    idempotentHint: true,
    openWorldHint: false,
  },
  request: (_args, tenantId) => ({ path: tenantPath(tenantId, "/notifications/endpoints") }),
});
