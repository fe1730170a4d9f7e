import { ListAgreementsQuery } from "@flowstate/contracts/rest/offers/agreements";
import { offersRoutes } from "@flowstate/contracts/rest/offers/routes";
import { routeIn } from "@flowstate/contracts/rest/route";
import { z } from "zod";
import { defineTool, tenantPath } from "./tool.ts";

/** `list_purchase_agreements` (decisions.md): GET agreements, status filter and cursor passed through. */
export const listPurchaseAgreements = defineTool({
  name: "list_purchase_agreements",
  description:
    "Lists the purchase agreements of the connected seller AWS account (offers buyers accepted), a page at a time: {agreements: [{agreement_id, status, offer_id, product_id, buyer_account_id, accepted_at, start_time, end_time}], next_cursor}. " +
    "Filter by status; pass next_cursor back as cursor (with the same filter) for the next page (absent: last page). " +
    "A connector role deployed before 2026-08-31 lacks the permission: the call fails with INTERNAL_ERROR while offers work, and check_marketplace_connector_health names the fix. Any member; needs the marketplace_offers feature.",
  route: routeIn(offersRoutes, "agreements.list"),
  scope: "marketplace:read",
  person: false,
  input: {
    status: ListAgreementsQuery.shape.status,
    limit: z.number().int().min(1).max(50).optional().describe("page size, 1–50 (default 20)"),
    cursor: ListAgreementsQuery.shape.cursor.describe("next_cursor of the previous page, as given"),
  },
  annotations: {
    title: "List purchase agreements",
    readOnlyHint: true,
    destructiveHint: false,
    idempotentHint: true,
    openWorldHint: true,
  },
  request: (args, tenantId) => ({
    path: tenantPath(tenantId, "/integrations/marketplace/agreements"),
    query: {
      status: args.status,
      limit: args.limit === undefined ? undefined : String(args.limit),
      cursor: args.cursor,
    },
  }),
});
