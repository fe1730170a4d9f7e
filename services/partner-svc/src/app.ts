import { databaseReady } from "@flowstate/shared/db/open-database";
import { createServiceApp } from "@flowstate/shared/http/app";
import type { MetricsRegistry } from "@flowstate/shared/http/metrics";
import type { PartnerDeps } from "./deps.ts";
import type { PartnerApp, PartnerEnv } from "./http/env.ts";
import { gatewayOnly } from "./http/gateway-only.ts";
import { mountEngagementsList } from "./routes/engagements-list.ts";
import { mountOpportunitiesList } from "./routes/opportunities-list.ts";

/** partner-svc's HTTP app: the platform base, the gateway-only check, one route per file. */
export function createApp(
  deps: PartnerDeps,
  options: { metrics?: MetricsRegistry; checkResponses?: boolean } = {},
): PartnerApp {
  const app = createServiceApp<PartnerEnv>({
    name: "partner-svc",
    logger: deps.logger,
    metrics: options.metrics,
    checkResponses: options.checkResponses,
    bodyLimitBytes: 1024, // read-only API: no request has a body
    readiness: { database: databaseReady(deps.orm) },
  });
  app.use(gatewayOnly(deps));
  mountOpportunitiesList(app);
  mountEngagementsList(app);
  return app;
}
