import { routeIn } from "@flowstate/contracts/rest/route";
import { connectorRoutes } from "@flowstate/contracts/rest/routes";
import { defineTool, tenantPath } from "./tool.ts";

/** `check_marketplace_connector_health` (decisions.md): GET health. */
export const checkMarketplaceConnectorHealth = defineTool({
  name: "check_marketplace_connector_health",
  description:
    "Tests the connected seller account now: can each Flowstate principal (backend, mcp-execution) assume the role, does " +
    "each capability work, and per problem a diagnosis with its fix for each onboarding path.",
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
