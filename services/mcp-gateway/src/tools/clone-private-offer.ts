import { OfferId } from "@flowstate/contracts/rest/offers/common";
import { CloneOfferRequest } from "@flowstate/contracts/rest/offers/offer-requests";
import { offersRoutes } from "@flowstate/contracts/rest/offers/routes";
import { routeIn } from "@flowstate/contracts/rest/route";
import { defineTool, idempotencyHeader, idempotencyKey, tenantPath } from "./tool.ts";

/** `clone_private_offer(offer_id, …)` (decisions.md): POST offers/{offer_id}/clone. */
export const clonePrivateOffer = defineTool({
  name: "clone_private_offer",
  description:
    "Creates a new draft offer from an existing offer's terms, each field given here replacing the original's (payment_schedule: null drops the schedule); release: true also releases it, expire_original: true also expires the original (its buyers can no longer accept it). " +
    "One AWS Marketplace change set; does not wait for AWS: returns {change_set_id, status, location} at once; poll get_offer_change_status. " +
    "Refused with OFFER_NOT_CLONEABLE when the original has terms Flowstate does not type (other_terms), VALIDATION_FAILED when the merged offer breaks a rule (e.g. a copied charge date in the past), CURRENCY_NOT_ALLOWED for a currency the seller is not paid out in. " +
    "Pass idempotency_key to make a retry safe. Needs the admin role (or a write API key) and the marketplace_offers feature.",
  route: routeIn(offersRoutes, "offers.clone"),
  scope: "marketplace:write",
  person: false,
  input: {
    offer_id: OfferId.describe("the offer to copy, e.g. offer-abc123"),
    ...CloneOfferRequest.shape,
    idempotency_key: idempotencyKey,
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
