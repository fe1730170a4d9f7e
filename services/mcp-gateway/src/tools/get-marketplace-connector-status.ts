import { routeIn } from "@flowstate/contracts/rest/route";
import { connectorRoutes } from "@flowstate/contracts/rest/routes";
import { defineTool, tenantPath } from "./tool.ts";

/** `get_marketplace_connector_status` (interface 4.2): GET status of the tenant's connector. */
export const getMarketplaceConnectorStatus = defineTool({
  name: "get_marketplace_connector_status",
  description:
    "Reads the tenant's AWS Marketplace connector. Not connected: {connected: false, external_id}, the external ID to put in the MarketplaceConnector role's trust policy (generated on the first read, kept until disconnect). " +
    "Connected: {connected: true, status, role_arn, account_id, external_id, connected_at}. Needs the tenant's marketplace_offers feature; any member may call it.",
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
