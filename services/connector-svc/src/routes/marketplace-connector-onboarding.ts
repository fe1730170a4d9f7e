import { routeIn } from "@flowstate/contracts/rest/route";
import { connectorRoutes } from "@flowstate/contracts/rest/routes";
import { mountRoute } from "@flowstate/shared/http/mount-route";
import type { ConnectorApp } from "../http/env.ts";
import { getOnboarding } from "../verbs/get-onboarding.ts";

export function mountMarketplaceConnectorOnboarding(app: ConnectorApp): void {
  mountRoute(app, routeIn(connectorRoutes, "marketplace.connector.onboarding"), async ({ params }, c) => ({
    status: 200,
    body: await getOnboarding({ ctx: c.get("call"), tenantId: params.id }),
  }));
}
