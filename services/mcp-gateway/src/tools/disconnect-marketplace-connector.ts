import { routeIn } from "@flowstate/contracts/rest/route";
import { connectorRoutes } from "@flowstate/contracts/rest/routes";
import { defineTool, tenantPath } from "./tool.ts";

/** `disconnect_marketplace_connector` (decisions.md): DELETE the connector. */
export const disconnectMarketplaceConnector = defineTool({
  name: "disconnect_marketplace_connector",
  description:
    "Disconnects the tenant from the seller's AWS account: the connector and its external ID are discarded (the next status read generates a new external ID, so the role's trust policy must be updated before reconnecting). " +
    "Nothing in the AWS account is changed. Returns {} on success. Needs the admin role and the marketplace_offers feature.",
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
