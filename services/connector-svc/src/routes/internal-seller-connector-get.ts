import { internalConnectorRoutes } from "@flowstate/contracts/internal/routes";
import { routeIn } from "@flowstate/contracts/rest/route";
import { mountRoute } from "@flowstate/shared/http/mount-route";
import type { ConnectorApp } from "../http/env.ts";
import { sellerConnectorRecord } from "../verbs/seller-connector-record.ts";

export function mountInternalSellerConnectorGet(app: ConnectorApp): void {
  mountRoute(app, routeIn(internalConnectorRoutes, "internal.seller_connector.get"), async ({ params }, c) => ({
    status: 200,
    body: await sellerConnectorRecord({ ctx: c.get("call"), tenantId: params.id }),
  }));
}
