import { routeIn } from "@flowstate/contracts/rest/route";
import { connectorRoutes } from "@flowstate/contracts/rest/routes";
import { defineTool, tenantPath } from "./tool.ts";

/** `get_marketplace_connector_status` (interface 4.2): GET status of the tenant's connector. */
export const getMarketplaceConnectorStatus = defineTool({
  name: "get_marketplace_connector_status",
  description:
    "Reads the tenant's AWS Marketplace connector: connected or not, and the external ID the MarketplaceConnector " +
    "role's trust policy must require (kept until disconnect).",
  route: routeIn(connectorRoutes, "marketplace.connector.get"),
  scope: "marketplace:read",
  person: false,
  input: {},
  annotations: {
    title: "Marketplace connector status",
    readOnlyHint: true,
    destructiveHint: false,
    idempotentHint: true,
    openWorldHint: false,
  },
  request: (_args, tenantId) => ({ path: tenantPath(tenantId, "/integrations/marketplace") }),
});
