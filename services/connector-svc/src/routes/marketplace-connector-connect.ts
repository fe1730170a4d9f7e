import { routeIn } from "@flowstate/contracts/rest/route";
import { connectorRoutes } from "@flowstate/contracts/rest/routes";
import { mountRoute } from "@flowstate/shared/http/mount-route";
import type { ConnectorApp } from "../http/env.ts";
import { connect } from "../verbs/connect.ts";

export function mountMarketplaceConnectorConnect(app: ConnectorApp): void {
  mountRoute(app, routeIn(connectorRoutes, "marketplace.connector.connect"), async ({ params, body }, c) => ({
    status: 200,
    body: await connect({ ctx: c.get("call"), tenantId: params.id, input: body }),
  }));
}
