import { CreateEndpoint } from "@flowstate/contracts/rest/notify/endpoints";
import { notifyRoutes } from "@flowstate/contracts/rest/notify/routes";
import { routeIn } from "@flowstate/contracts/rest/route";
import { defineTool, tenantPath } from "./tool.ts";

/** `create_notification_endpoint(url, kind?, types?)` (issue 25): POST notifications/endpoints (admins). */
export const createNotificationEndpoint = defineTool({
  name: "create_notification_endpoint",
  description:
    "Registers a public https webhook (Standard Webhooks; its whsec_ secret is returned once) or a Slack webhook (kind slack). Admins only.",
  route: routeIn(notifyRoutes, "notifications.endpoints.create"),
  scope: "marketplace:write",
  person: false,
  input: {
    url: CreateEndpoint.shape.url,
    kind: CreateEndpoint.shape.kind.optional().describe("webhook (default) or slack"),
    types: CreateEndpoint.shape.types.describe("the kinds to send; all when absent"),
    description: CreateEndpoint.shape.description,
  },
  annotations: {
    title: "Create a notification endpoint",
    readOnlyHint: false,
    destructiveHint: false,
    idempotentHint: false,
    openWorldHint: true,
  },
  request: (args, tenantId) => ({ path: tenantPath(tenantId, "/notifications/endpoints"), body: args }),
});
