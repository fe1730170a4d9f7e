import { ProductsQuery } from "@flowstate/contracts/rest/connector/marketplace";
import { routeIn } from "@flowstate/contracts/rest/route";
import { connectorRoutes } from "@flowstate/contracts/rest/routes";
import { z } from "zod";
import { defineTool, tenantPath } from "./tool.ts";

/** `list_marketplace_products` (interface 4.2): GET products, cursor passed through. */
export const listMarketplaceProducts = defineTool({
  name: "list_marketplace_products",
  description:
    "Lists the SaaS products of the connected seller AWS account, a page at a time: {products: [{id, title, visibility, last_modified}], next_cursor}. " +
    "Pass next_cursor back as cursor for the next page (null: last page). Refused with CONNECTOR_NOT_CONNECTED before a connect, CONNECTOR_ACCESS_DENIED when the role refuses. Any member; needs the marketplace_offers feature.",
  route: routeIn(connectorRoutes, "marketplace.products.list"),
  scope: "marketplace:read",
  person: false,
  input: {
    cursor: ProductsQuery.shape.cursor.describe("next_cursor of the previous page, as given"),
    limit: z.number().int().min(1).max(50).optional().describe("page size, 1–50 (default 20)"),
  },
  annotations: {
    title: "List marketplace products",
    readOnlyHint: true,
    destructiveHint: false,
    idempotentHint: true,
    openWorldHint: true,
  },
  request: (args, tenantId) => ({
    path: tenantPath(tenantId, "/integrations/marketplace/products"),
    query: { cursor: args.cursor, limit: args.limit === undefined ? undefined : String(args.limit) },
  }),
});
