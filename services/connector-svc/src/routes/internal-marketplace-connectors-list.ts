import { internalConnectorRoutes } from "@flowstate/contracts/internal/routes";
import { routeIn } from "@flowstate/contracts/rest/route";
import { mountRoute } from "@flowstate/shared/http/mount-route";
import type { ConnectorApp } from "../http/env.ts";
import { connectedAccounts } from "../verbs/connected-accounts.ts";

export function mountInternalMarketplaceConnectorsList(app: ConnectorApp): void {
  mountRoute(app, routeIn(internalConnectorRoutes, "internal.marketplace_connectors.list"), async (_input, c) => ({
    status: 200,
    body: await connectedAccounts({ ctx: c.get("call") }),
  }));
}
