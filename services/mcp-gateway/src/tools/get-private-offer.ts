import { OfferId } from "@flowstate/contracts/rest/offers/common";
import { offersRoutes } from "@flowstate/contracts/rest/offers/routes";
import { routeIn } from "@flowstate/contracts/rest/route";
import { defineTool, tenantPath } from "./tool.ts";

/** `get_private_offer(offer_id)` (decisions.md): GET one offer. */
export const getPrivateOffer = defineTool({
  name: "get_private_offer",
  description:
    "Reads one offer of the connected seller AWS account as the seller sees it: name, description, product_id, state, visibility, buyer_accounts, pricing, payment_schedule, legal_terms, validity, availability_end_date, release_date, " +
    "and other_terms (terms Flowstate does not type; an offer with any cannot be cloned). An unknown offer id is NOT_FOUND. " +
    "Refused with CONNECTOR_NOT_CONNECTED before a connect, CONNECTOR_ACCESS_DENIED when the role refuses Flowstate's MCP principal. Any member; needs the marketplace_offers feature.",
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
