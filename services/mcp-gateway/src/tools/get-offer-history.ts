import { OfferHistoryQuery } from "@flowstate/contracts/rest/offers/changes";
import { OfferId } from "@flowstate/contracts/rest/offers/common";
import { offersRoutes } from "@flowstate/contracts/rest/offers/routes";
import { routeIn } from "@flowstate/contracts/rest/route";
import { z } from "zod";
import { defineTool, tenantPath } from "./tool.ts";

/** `get_offer_history(offer_id)` (issue 25, drafts): GET offers/{offer_id}/changes. */
export const getOfferHistory = defineTool({
  name: "get_offer_history",
  description: "The changes submitted for an offer (creation, updates, release, expiry, clones), newest first.",
  route: routeIn(offersRoutes, "offers.changes.list"),
  scope: "marketplace:read",
  person: false,
  input: {
    offer_id: OfferId.describe("the offer, e.g. offer-abc123"),
    limit: z.number().int().min(1).max(100).optional().describe("default 50"),
    cursor: OfferHistoryQuery.shape.cursor.describe("the previous page's next_cursor"),
  },
  annotations: {
    title: "Offer history",
    readOnlyHint: true,
    destructiveHint: false,
    idempotentHint: true,
    openWorldHint: false,
  },
  request: ({ offer_id, limit, cursor }, tenantId) => ({
    path: tenantPath(tenantId, `/integrations/marketplace/offers/${encodeURIComponent(offer_id)}/changes`),
    query: { limit: limit === undefined ? undefined : String(limit), cursor },
  }),
});
