import { offersRoutes } from "@flowstate/contracts/rest/offers/routes";
import { routeIn } from "@flowstate/contracts/rest/route";
import { defineTool, tenantPath } from "./tool.ts";

/** `get_seller_currencies` (decisions.md): GET seller/currencies. */
export const getSellerCurrencies = defineTool({
  name: "get_seller_currencies",
  description:
    "Says whether the currencies the seller is paid out in can be determined: they cannot (determined: false), " +
    "because AWS documents no way to read them (NOT_DOCUMENTED_BY_AWS) or the connector role predates 2026-08-31 " +
    "(CONNECTOR_POLICY_OUTDATED: check_marketplace_connector_health names the fix). AWS checks an offer's currency " +
    "when it applies the change set.",
  route: routeIn(offersRoutes, "seller.currencies.get"),
  scope: "marketplace:read",
  person: false,
  input: {},
  annotations: {
    title: "Seller payout currencies",
    readOnlyHint: true,
    destructiveHint: false,
    idempotentHint: true,
    openWorldHint: true,
  },
  request: (_args, tenantId) => ({ path: tenantPath(tenantId, "/integrations/marketplace/seller/currencies") }),
});
