import { OfferId } from "@flowstate/contracts/rest/offers/common";
import { UpdateOfferRequest } from "@flowstate/contracts/rest/offers/offer-requests";
import { offersRoutes } from "@flowstate/contracts/rest/offers/routes";
import { routeIn } from "@flowstate/contracts/rest/route";
import { defineTool, idempotencyHeader, idempotencyKey, tenantPath } from "./tool.ts";

/** `update_private_offer(offer_id, …)` (issue 25, drafts): PATCH offers/{offer_id}. */
export const updatePrivateOffer = defineTool({
  name: "update_private_offer",
  description:
    "Changes a draft offer before release: each field given replaces the draft's. Returns a change set at once: " +
    "poll get_offer_change_status.",
  route: routeIn(offersRoutes, "offers.update"),
  scope: "marketplace:write",
  person: false,
  input: {
    offer_id: OfferId.describe("the draft to change, e.g. offer-abc123"),
    ...UpdateOfferRequest.shape,
    idempotency_key: idempotencyKey,
  },
  outlined: {
    pricing: "as create_private_offer's pricing",
    payment_schedule: "as create_private_offer's payment_schedule",
    legal_terms: "as create_private_offer's legal_terms",
    validity: "as create_private_offer's validity",
  },
  annotations: {
    title: "Change a draft private offer",
    readOnlyHint: false,
    // A draft is not visible to buyers; a change replaces only what is given.
    destructiveHint: false,
    idempotentHint: false,
    openWorldHint: true,
  },
  request: ({ offer_id, idempotency_key, ...body }, tenantId) => ({
    path: tenantPath(tenantId, `/integrations/marketplace/offers/${encodeURIComponent(offer_id)}`),
    body,
    headers: idempotencyHeader(idempotency_key),
  }),
});
