import { routeIn } from "@flowstate/contracts/rest/route";
import { connectorRoutes } from "@flowstate/contracts/rest/routes";
import { mountRoute } from "@flowstate/shared/http/mount-route";
import type { ConnectorApp } from "../http/env.ts";
import { getStatus } from "../verbs/get-status.ts";

export function mountMarketplaceConnectorGet(app: ConnectorApp): void {
  mountRoute(app, routeIn(connectorRoutes, "marketplace.connector.get"), async ({ params }, c) => ({
    status: 200,
    body: await getStatus({ ctx: c.get("call"), tenantId: params.id }),
  }));
}
