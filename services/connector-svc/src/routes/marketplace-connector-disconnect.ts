import { routeIn } from "@flowstate/contracts/rest/route";
import { connectorRoutes } from "@flowstate/contracts/rest/routes";
import { mountRoute } from "@flowstate/shared/http/mount-route";
import type { ConnectorApp } from "../http/env.ts";
import { disconnect } from "../verbs/disconnect.ts";

export function mountMarketplaceConnectorDisconnect(app: ConnectorApp): void {
  mountRoute(app, routeIn(connectorRoutes, "marketplace.connector.disconnect"), async ({ params }, c) => {
    await disconnect({ ctx: c.get("call"), tenantId: params.id });
    return { status: 204 };
  });
}
