import { offersRoutes } from "@flowstate/contracts/rest/offers/routes";
import { routeIn } from "@flowstate/contracts/rest/route";
import { defineTool, tenantPath } from "./tool.ts";

/** `get_seller_currencies` (decisions.md): GET seller/currencies. */
export const getSellerCurrencies = defineTool({
  name: "get_seller_currencies",
  description:
    "Reads the currencies the connected seller AWS account is paid out in, which are the only currencies its offers may use: {determined: true, currencies: [USD|EUR|GBP|AUD|JPY, ...]}. " +
    "With a connector role deployed before 2026-08-31 they cannot be read: {determined: false, currencies: [], reason_code: CONNECTOR_POLICY_OUTDATED, reason, health} (check_marketplace_connector_health names the fix). " +
    "Refused with CONNECTOR_NOT_CONNECTED before a connect, CONNECTOR_ACCESS_DENIED when the role refuses Flowstate's MCP principal. Any member; needs the marketplace_offers feature.",
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
