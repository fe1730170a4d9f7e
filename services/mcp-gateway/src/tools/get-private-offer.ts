import { OfferId } from "@flowstate/contracts/rest/offers/common";
import { offersRoutes } from "@flowstate/contracts/rest/offers/routes";
import { routeIn } from "@flowstate/contracts/rest/route";
import { defineTool, tenantPath } from "./tool.ts";

/** `get_private_offer(offer_id)` (decisions.md): GET one offer. */
export const getPrivateOffer = defineTool({
  name: "get_private_offer",
  description:
    "Reads one of the seller's offers with all its terms. other_terms are terms Flowstate does not model; an offer " +
    "with any cannot be cloned.",
  route: routeIn(offersRoutes, "offers.get"),
  scope: "marketplace:read",
  person: false,
  input: { offer_id: OfferId.describe("the offer's id, e.g. offer-abc123 (list_private_offers)") },
  annotations: {
    title: "Get a private offer",
    readOnlyHint: true,
    destructiveHint: false,
    idempotentHint: true,
    openWorldHint: true,
  },
  request: (args, tenantId) => ({
    path: tenantPath(tenantId, `/integrations/marketplace/offers/${encodeURIComponent(args.offer_id)}`),
  }),
});
