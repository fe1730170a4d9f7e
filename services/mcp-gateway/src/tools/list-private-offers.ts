import { ListOffersQuery } from "@flowstate/contracts/rest/offers/offers";
import { offersRoutes } from "@flowstate/contracts/rest/offers/routes";
import { routeIn } from "@flowstate/contracts/rest/route";
import { z } from "zod";
import { defineTool, tenantPath } from "./tool.ts";

/** `list_private_offers` (decisions.md): GET offers, filters and cursor passed through. */
export const listPrivateOffers = defineTool({
  name: "list_private_offers",
  description:
    "Lists the offers of the connected seller AWS account, newest change first, a page at a time: {offers: [{offer_id, name, product_id, state (draft|released|expired), visibility, buyer_accounts, availability_end_date, release_date, last_modified_at}], next_cursor}. " +
    "Filter by state, product_id, visibility; pass next_cursor back as cursor (with the same filters) for the next page (absent: last page). " +
    "Refused with CONNECTOR_NOT_CONNECTED before a connect, CONNECTOR_ACCESS_DENIED when the role refuses Flowstate's MCP principal. Any member; needs the marketplace_offers feature.",
  route: routeIn(offersRoutes, "offers.list"),
  scope: "marketplace:read",
  person: false,
  input: {
    state: ListOffersQuery.shape.state,
    product_id: ListOffersQuery.shape.product_id,
    visibility: ListOffersQuery.shape.visibility,
    limit: z.number().int().min(1).max(50).optional().describe("page size, 1–50 (default 20)"),
    cursor: ListOffersQuery.shape.cursor.describe("next_cursor of the previous page, as given"),
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
