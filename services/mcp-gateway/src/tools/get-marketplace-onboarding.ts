import { routeIn } from "@flowstate/contracts/rest/route";
import { connectorRoutes } from "@flowstate/contracts/rest/routes";
import { defineTool, tenantPath } from "./tool.ts";

/** `get_marketplace_onboarding` (decisions.md): GET the onboarding bundle. */
export const getMarketplaceOnboarding = defineTool({
  name: "get_marketplace_onboarding",
  description:
    "Returns what the seller needs to create the MarketplaceConnector role: the external ID, Flowstate's principal ARNs " +
    "(the trust policy must list both for MCP to work), a CloudFormation quick-create link, a Terraform module call, " +
    "console steps and the policies.",
  route: routeIn(connectorRoutes, "marketplace.connector.onboarding"),
  scope: "marketplace:read",
  person: false,
  input: {},
  annotations: {
    title: "Marketplace onboarding bundle",
    readOnlyHint: true,
    destructiveHint: false,
    idempotentHint: true,
    openWorldHint: false,
  },
  request: (_args, tenantId) => ({ path: tenantPath(tenantId, "/integrations/marketplace/onboarding") }),
});
