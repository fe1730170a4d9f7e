import { OfferId } from "@flowstate/contracts/rest/offers/common";
import { offersRoutes } from "@flowstate/contracts/rest/offers/routes";
import { routeIn } from "@flowstate/contracts/rest/route";
import { defineTool, idempotencyHeader, idempotencyKey, tenantPath } from "./tool.ts";

/** `expire_private_offer(offer_id)` (decisions.md): POST offers/{offer_id}/expire. */
export const expirePrivateOffer = defineTool({
  name: "expire_private_offer",
  description:
    "Expires a released offer: its buyers can no longer accept it; agreements made stay. Returns a change set at once: " +
    "poll get_offer_change_status.",
  route: routeIn(offersRoutes, "offers.expire"),
  scope: "marketplace:write",
  person: false,
  input: {
    offer_id: OfferId.describe("the released offer, e.g. offer-abc123"),
    idempotency_key: idempotencyKey,
  },
  annotations: {
    title: "Expire a private offer",
    readOnlyHint: false,
    destructiveHint: true,
    // An expired offer stays expired: expiring it again changes nothing.
    idempotentHint: true,
    openWorldHint: true,
  },
  request: ({ offer_id, idempotency_key }, tenantId) => ({
    path: tenantPath(tenantId, `/integrations/marketplace/offers/${encodeURIComponent(offer_id)}/expire`),
    headers: idempotencyHeader(idempotency_key),
  }),
});
