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
    "Creates a private offer on one of the seller's products as one AWS Marketplace change set (release: true also " +
    "releases it). Rules: dates today or later, charge dates ascending, buyers needed to release, payment_schedule " +
    "only with contract pricing, a currency the seller is paid out in (AWS checks it when it applies the change set: " +
    "the answer's currency_not_checked says why it could not be checked before). Returns a change set at once: " +
    "poll get_offer_change_status.",
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
