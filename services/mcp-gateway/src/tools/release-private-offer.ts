import { OfferId } from "@flowstate/contracts/rest/offers/common";
import { offersRoutes } from "@flowstate/contracts/rest/offers/routes";
import { routeIn } from "@flowstate/contracts/rest/route";
import { defineTool, idempotencyHeader, idempotencyKey, tenantPath } from "./tool.ts";

/** `release_private_offer(offer_id)` (decisions.md): POST offers/{offer_id}/release. */
export const releasePrivateOffer = defineTool({
  name: "release_private_offer",
  description:
    "Releases a draft offer to its buyer accounts, who can then accept it. Returns a change set at once: poll " +
    "get_offer_change_status (AWS refuses e.g. an offer without buyers).",
  route: routeIn(offersRoutes, "offers.release"),
  scope: "marketplace:write",
  person: false,
  input: {
    offer_id: OfferId.describe("the draft offer, e.g. offer-abc123"),
    idempotency_key: idempotencyKey,
  },
  annotations: {
    title: "Release a private offer",
    readOnlyHint: false,
    destructiveHint: false,
    // A released offer stays released: releasing it again changes nothing.
    idempotentHint: true,
    openWorldHint: true,
  },
  request: ({ offer_id, idempotency_key }, tenantId) => ({
    path: tenantPath(tenantId, `/integrations/marketplace/offers/${encodeURIComponent(offer_id)}/release`),
    headers: idempotencyHeader(idempotency_key),
  }),
});
