import { databaseReady } from "@flowstate/shared/db/open-database";
import { createServiceApp } from "@flowstate/shared/http/app";
import type { MetricsRegistry } from "@flowstate/shared/http/metrics";
import type { ConnectorDeps } from "./deps.ts";
import { connectorContext } from "./http/connector-context.ts";
import type { ConnectorApp, ConnectorEnv } from "./http/env.ts";
import { mountInternalMarketplaceConnectorsList } from "./routes/internal-marketplace-connectors-list.ts";
import { mountInternalSellerConnectorGet } from "./routes/internal-seller-connector-get.ts";
import { mountMarketplaceConnectorConnect } from "./routes/marketplace-connector-connect.ts";
import { mountMarketplaceConnectorDisconnect } from "./routes/marketplace-connector-disconnect.ts";
import { mountMarketplaceConnectorGet } from "./routes/marketplace-connector-get.ts";
import { mountMarketplaceConnectorHealth } from "./routes/marketplace-connector-health.ts";
import { mountMarketplaceConnectorOnboarding } from "./routes/marketplace-connector-onboarding.ts";
import { mountMarketplaceConnectorRoleTemplate } from "./routes/marketplace-connector-role-template.ts";
import { mountMarketplaceProductsList } from "./routes/marketplace-products-list.ts";

/**
 * connector-svc's HTTP app: the platform base, the deny-by-default assertion check, then one route
 * per file, each mounted from its registry entry (`mountRoute`). `app.test.ts` checks the route
 * contract (expectRouteContract).
 */
export function createApp(
  deps: ConnectorDeps,
  options: { metrics?: MetricsRegistry; checkResponses?: boolean } = {},
): ConnectorApp {
  const app = createServiceApp<ConnectorEnv>({
    name: "connector-svc",
    logger: deps.logger,
    metrics: options.metrics,
    checkResponses: options.checkResponses,
    bodyLimitBytes: 16 * 1024, // a role ARN is the largest thing anyone sends here
    readiness: { database: databaseReady(deps.orm) },
  });
  app.use(connectorContext(deps));
  mountMarketplaceConnectorGet(app);
  mountMarketplaceConnectorConnect(app);
  mountMarketplaceConnectorDisconnect(app);
  mountMarketplaceConnectorOnboarding(app);
  mountMarketplaceConnectorHealth(app);
  mountMarketplaceProductsList(app);
  mountMarketplaceConnectorRoleTemplate(app);
  mountInternalSellerConnectorGet(app);
  mountInternalMarketplaceConnectorsList(app);
  return app;
}
