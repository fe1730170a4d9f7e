import { offersRoutes } from "@flowstate/contracts/rest/offers/routes";
import { routeIn } from "@flowstate/contracts/rest/route";
import { defineTool, tenantPath } from "./tool.ts";

/** `get_seller_currencies` (decisions.md): GET seller/currencies. */
export const getSellerCurrencies = defineTool({
  name: "get_seller_currencies",
  description:
    "Reads the currencies the seller is paid out in, the only ones its offers may use. determined: false with a " +
    "connector role from before 2026-08-31 (check_marketplace_connector_health names the fix).",
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
