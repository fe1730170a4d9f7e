import { ProductsQuery } from "@flowstate/contracts/rest/connector/marketplace";
import { routeIn } from "@flowstate/contracts/rest/route";
import { connectorRoutes } from "@flowstate/contracts/rest/routes";
import { z } from "zod";
import { defineTool, tenantPath } from "./tool.ts";

/** `list_marketplace_products` (interface 4.2): GET products, cursor passed through. */
export const listMarketplaceProducts = defineTool({
  name: "list_marketplace_products",
  description: "Lists the seller's SaaS products, a page at a time.",
  route: routeIn(connectorRoutes, "marketplace.products.list"),
  scope: "marketplace:read",
  person: false,
  input: {
    cursor: ProductsQuery.shape.cursor.describe("the previous page's next_cursor"),
    limit: z.number().int().min(1).max(50).optional().describe("default 20"),
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
