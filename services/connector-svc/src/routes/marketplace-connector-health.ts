import { routeIn } from "@flowstate/contracts/rest/route";
import { connectorRoutes } from "@flowstate/contracts/rest/routes";
import { mountRoute } from "@flowstate/shared/http/mount-route";
import type { ConnectorApp } from "../http/env.ts";
import { checkHealth } from "../verbs/check-health.ts";

export function mountMarketplaceConnectorHealth(app: ConnectorApp): void {
  mountRoute(app, routeIn(connectorRoutes, "marketplace.connector.health"), async ({ params }, c) => ({
    status: 200,
    body: await checkHealth({ ctx: c.get("call"), tenantId: params.id }),
  }));
}
