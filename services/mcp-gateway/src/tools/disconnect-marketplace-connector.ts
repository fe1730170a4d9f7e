import { routeIn } from "@flowstate/contracts/rest/route";
import { connectorRoutes } from "@flowstate/contracts/rest/routes";
import { defineTool, tenantPath } from "./tool.ts";

/** `disconnect_marketplace_connector` (decisions.md): DELETE the connector. */
export const disconnectMarketplaceConnector = defineTool({
  name: "disconnect_marketplace_connector",
  description:
    "Disconnects the tenant from the seller's AWS account (nothing there changes) and discards its external ID: the " +
    "role's trust policy needs the new one before reconnecting.",
  route: routeIn(connectorRoutes, "marketplace.connector.disconnect"),
  scope: "marketplace:write",
  person: false,
  input: {},
  annotations: {
    title: "Disconnect the marketplace connector",
    readOnlyHint: false,
    destructiveHint: true,
    idempotentHint: true,
    openWorldHint: false,
  },
  request: (_args, tenantId) => ({ path: tenantPath(tenantId, "/integrations/marketplace") }),
});
