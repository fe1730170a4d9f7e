import { ConnectRequest } from "@flowstate/contracts/rest/connector/marketplace";
import { routeIn } from "@flowstate/contracts/rest/route";
import { connectorRoutes } from "@flowstate/contracts/rest/routes";
import { defineTool, tenantPath } from "./tool.ts";

/** `connect_marketplace_connector(role_arn)` (interface 4.2): POST connect. */
export const connectMarketplaceConnector = defineTool({
  name: "connect_marketplace_connector",
  description:
    "Connects the tenant to the seller's AWS account: Flowstate assumes role_arn with the tenant's external ID and " +
    "verifies it with one catalog read.",
  route: routeIn(connectorRoutes, "marketplace.connector.connect"),
  scope: "marketplace:write",
  person: false,
  input: ConnectRequest.shape,
  annotations: {
    title: "Connect the marketplace connector",
    readOnlyHint: false,
    destructiveHint: false,
    idempotentHint: true,
    openWorldHint: true,
  },
  request: (args, tenantId) => ({ path: tenantPath(tenantId, "/integrations/marketplace"), body: args }),
});
