import { ListAgreementsQuery } from "@flowstate/contracts/rest/offers/agreements";
import { offersRoutes } from "@flowstate/contracts/rest/offers/routes";
import { routeIn } from "@flowstate/contracts/rest/route";
import { z } from "zod";
import { defineTool, tenantPath } from "./tool.ts";

/** `list_purchase_agreements` (decisions.md): GET agreements (the agreement watch's record), status filter and cursor passed through. */
export const listPurchaseAgreements = defineTool({
  name: "list_purchase_agreements",
  description:
    "Lists the seller's purchase agreements (offers buyers accepted), a page at a time (keep the filter for the next " +
    "page), as last read from AWS (synced_at). With a connector role from before 2026-08-31: INTERNAL_ERROR " +
    "(check_marketplace_connector_health names the fix).",
  route: routeIn(offersRoutes, "agreements.list"),
  scope: "marketplace:read",
  person: false,
  input: {
    status: ListAgreementsQuery.shape.status,
    limit: z.number().int().min(1).max(50).optional().describe("default 20"),
    cursor: ListAgreementsQuery.shape.cursor.describe("the previous page's next_cursor"),
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
