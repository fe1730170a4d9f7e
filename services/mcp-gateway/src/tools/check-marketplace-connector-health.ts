import { routeIn } from "@flowstate/contracts/rest/route";
import { connectorRoutes } from "@flowstate/contracts/rest/routes";
import { defineTool, tenantPath } from "./tool.ts";

/** `check_marketplace_connector_health` (decisions.md): GET health. */
export const checkMarketplaceConnectorHealth = defineTool({
  name: "check_marketplace_connector_health",
  description:
    "Checks the connected seller account now: for each Flowstate principal (backend, mcp-execution) whether it can assume the role, for each capability (products, offers, agreements, seller profile) whether it works, " +
    "and a diagnosis with a stable code and the fix per onboarding path. Refused with CONNECTOR_NOT_CONNECTED before a connect. Any member may call it; needs the marketplace_offers feature.",
  route: routeIn(connectorRoutes, "marketplace.connector.health"),
  scope: "marketplace:read",
  person: false,
  input: {},
  annotations: {
    title: "Check marketplace connector health",
    readOnlyHint: true,
    destructiveHint: false,
    idempotentHint: true,
    openWorldHint: true,
  },
  request: (_args, tenantId) => ({ path: tenantPath(tenantId, "/integrations/marketplace/health") }),
});
