import { OfferId } from "@flowstate/contracts/rest/offers/common";
import { CloneOfferRequest } from "@flowstate/contracts/rest/offers/offer-requests";
import { offersRoutes } from "@flowstate/contracts/rest/offers/routes";
import { routeIn } from "@flowstate/contracts/rest/route";
import { defineTool, idempotencyHeader, idempotencyKey, tenantPath } from "./tool.ts";

/** `clone_private_offer(offer_id, …)` (decisions.md): POST offers/{offer_id}/clone. */
export const clonePrivateOffer = defineTool({
  name: "clone_private_offer",
  description:
    "Creates a new draft offer from an offer's terms, each field given replacing the original's. release: true also " +
    "releases it; expire_original: true also expires the original. An offer with other_terms cannot be cloned. " +
    "Returns a change set at once: poll get_offer_change_status.",
  route: routeIn(offersRoutes, "offers.clone"),
  scope: "marketplace:write",
  person: false,
  input: {
    offer_id: OfferId.describe("the offer to copy, e.g. offer-abc123"),
    ...CloneOfferRequest.shape,
    idempotency_key: idempotencyKey,
  },
  outlined: {
    pricing: "as create_private_offer's pricing",
    payment_schedule: "as create_private_offer's payment_schedule; null drops it",
    legal_terms: "as create_private_offer's legal_terms",
    validity: "as create_private_offer's validity",
  },
  annotations: {
    title: "Clone a private offer",
    readOnlyHint: false,
    // expire_original: true ends the original offer for its buyers.
    destructiveHint: true,
    idempotentHint: false,
    openWorldHint: true,
  },
  request: ({ offer_id, idempotency_key, ...body }, tenantId) => ({
    path: tenantPath(tenantId, `/integrations/marketplace/offers/${encodeURIComponent(offer_id)}/clone`),
    body,
    headers: idempotencyHeader(idempotency_key),
  }),
});
