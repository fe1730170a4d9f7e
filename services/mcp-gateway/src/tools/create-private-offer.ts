import { CreateOfferRequest } from "@flowstate/contracts/rest/offers/offer-requests";
import { offersRoutes } from "@flowstate/contracts/rest/offers/routes";
import { routeIn } from "@flowstate/contracts/rest/route";
import { defineTool, idempotencyHeader, idempotencyKey, tenantPath } from "./tool.ts";

/**
 * `create_private_offer` (decisions.md): POST offers. The body is the route's own schema (its
 * cross-field rules, such as dates not in the past, are checked by the route: a 400 with the field).
 */
export const createPrivateOffer = defineTool({
  name: "create_private_offer",
  description:
    "Creates a private offer on a product of the connected seller AWS account, as one AWS Marketplace change set (and releases it to the buyers too with release: true). " +
    "Does not wait for AWS: returns {change_set_id, status, location} at once; poll get_offer_change_status with change_set_id until status is succeeded (its offer_id is the new offer) or failed (its errors say why). " +
    "Checked before submitting: the fields (dates today or later, charge dates ascending, buyers needed to release, a payment schedule only with contract pricing; VALIDATION_FAILED names each field), the product and its dimensions, and a currency the seller is paid out in (CURRENCY_NOT_ALLOWED lists the allowed ones; get_seller_currencies). " +
    "Pass idempotency_key to make a retry safe. Needs the admin role (or a write API key) and the marketplace_offers feature.",
  route: routeIn(offersRoutes, "offers.create"),
  scope: "marketplace:write",
  person: false,
  input: { ...CreateOfferRequest.shape, idempotency_key: idempotencyKey },
  annotations: {
    title: "Create a private offer",
    readOnlyHint: false,
    destructiveHint: false,
    idempotentHint: false,
    openWorldHint: true,
  },
  request: ({ idempotency_key, ...body }, tenantId) => ({
    path: tenantPath(tenantId, "/integrations/marketplace/offers"),
    body,
    headers: idempotencyHeader(idempotency_key),
  }),
});
