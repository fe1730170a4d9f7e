import { ListOffersQuery } from "@flowstate/contracts/rest/offers/offers";
import { offersRoutes } from "@flowstate/contracts/rest/offers/routes";
import { routeIn } from "@flowstate/contracts/rest/route";
import { z } from "zod";
import { defineTool, tenantPath } from "./tool.ts";

/** `list_private_offers` (decisions.md): GET offers, filters and cursor passed through. */
export const listPrivateOffers = defineTool({
  name: "list_private_offers",
  description: "Lists the seller's offers, newest change first, a page at a time (keep the filters for the next page).",
  route: routeIn(offersRoutes, "offers.list"),
  scope: "marketplace:read",
  person: false,
  input: {
    state: ListOffersQuery.shape.state,
    product_id: ListOffersQuery.shape.product_id,
    visibility: ListOffersQuery.shape.visibility,
    limit: z.number().int().min(1).max(50).optional().describe("default 20"),
    cursor: ListOffersQuery.shape.cursor.describe("the previous page's next_cursor"),
  },
  annotations: {
    title: "List private offers",
    readOnlyHint: true,
    destructiveHint: false,
    idempotentHint: true,
    openWorldHint: true,
  },
  request: (args, tenantId) => ({
    path: tenantPath(tenantId, "/integrations/marketplace/offers"),
    query: {
      state: args.state,
      product_id: args.product_id,
      visibility: args.visibility,
      limit: args.limit === undefined ? undefined : String(args.limit),
      cursor: args.cursor,
    },
  }),
});
