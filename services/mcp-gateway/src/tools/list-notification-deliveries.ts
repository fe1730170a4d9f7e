import { NotificationEndpointId } from "@flowstate/contracts/ids";
import { DeliveryListQuery } from "@flowstate/contracts/rest/notify/endpoints";
import { notifyRoutes } from "@flowstate/contracts/rest/notify/routes";
import { routeIn } from "@flowstate/contracts/rest/route";
import { z } from "zod";
import { defineTool, tenantPath } from "./tool.ts";

/** `list_notification_deliveries(endpoint_id)` (issue 25): GET …/endpoints/{endpoint_id}/deliveries (admins). */
export const listNotificationDeliveries = defineTool({
  name: "list_notification_deliveries",
  description:
    "An endpoint's delivery log (30 days), newest first: each message's webhook-id, kind, status, attempts and last error.",
  route: routeIn(notifyRoutes, "notifications.deliveries.list"),
  scope: "marketplace:read",
  person: false,
  input: {
    endpoint_id: NotificationEndpointId.describe("e.g. whe_…"),
    limit: z.number().int().min(1).max(100).optional().describe("default 50"),
    cursor: DeliveryListQuery.shape.cursor.describe("the previous page's next_cursor"),
  },
  annotations: {
    title: "List notification deliveries",
    readOnlyHint: true,
    destructiveHint: false,
    idempotentHint: true,
    openWorldHint: false,
  },
  request: ({ endpoint_id, limit, cursor }, tenantId) => ({
    path: tenantPath(tenantId, `/notifications/endpoints/${encodeURIComponent(endpoint_id)}/deliveries`),
    query: { limit: limit === undefined ? undefined : String(limit), cursor },
  }),
});
