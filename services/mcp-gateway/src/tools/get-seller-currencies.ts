import { offersRoutes } from "@flowstate/contracts/rest/offers/routes";
import { routeIn } from "@flowstate/contracts/rest/route";
import { defineTool, tenantPath } from "./tool.ts";

/** `get_seller_currencies` (decisions.md): GET seller/currencies. */
export const getSellerCurrencies = defineTool({
  name: "get_seller_currencies",
  description:
    "Why the seller's payout currencies cannot be determined: AWS documents no way to read them, or the connector " +
    "role predates 2026-08-31 (check_marketplace_connector_health names the fix). AWS checks an offer's currency.",
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
