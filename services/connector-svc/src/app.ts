import { type AppOptions, databaseServiceApp } from "@flowstate/shared/http/database-service-app";
import type { ConnectorDeps } from "./deps.ts";
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
 * connector-svc's HTTP app: the platform base, the seam (the caller verified; each route's declared
 * access from the registry, the internal routes' callers included; writes re-check the credential),
 * then one route per file, each mounted from its registry entry (`mountRoute`). `app.test.ts` checks the route
 * contract (expectRouteContract).
 */
export function createApp(deps: ConnectorDeps, options: AppOptions = {}): ConnectorApp {
  return databaseServiceApp<ConnectorEnv>("connector-svc", deps, options, {
    bodyLimitBytes: 16 * 1024, // a role ARN is the largest thing anyone sends here
    seam: { service: "connector-svc", deps, credentials: deps.credentials },
    routes: [
      mountMarketplaceConnectorGet,
      mountMarketplaceConnectorConnect,
      mountMarketplaceConnectorDisconnect,
      mountMarketplaceConnectorOnboarding,
      mountMarketplaceConnectorHealth,
      mountMarketplaceProductsList,
      mountMarketplaceConnectorRoleTemplate,
      mountInternalSellerConnectorGet,
      mountInternalMarketplaceConnectorsList,
    ],
  });
}
