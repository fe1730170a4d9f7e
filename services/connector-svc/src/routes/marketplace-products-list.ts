import { routeIn } from "@flowstate/contracts/rest/route";
import { connectorRoutes } from "@flowstate/contracts/rest/routes";
import { mountRoute } from "@flowstate/shared/http/mount-route";
import type { ConnectorApp } from "../http/env.ts";
import { listProducts } from "../verbs/list-products.ts";

export function mountMarketplaceProductsList(app: ConnectorApp): void {
  mountRoute(app, routeIn(connectorRoutes, "marketplace.products.list"), async ({ params, query }, c) => ({
    status: 200,
    body: await listProducts({ ctx: c.get("call"), tenantId: params.id, query }),
  }));
}
