import { type AppOptions, databaseServiceApp } from "@flowstate/shared/http/database-service-app";
import type { PartnerDeps } from "./deps.ts";
import type { PartnerApp, PartnerEnv } from "./http/env.ts";
import { gatewayOnly } from "./http/gateway-only.ts";
import { mountEngagementsList } from "./routes/engagements-list.ts";
import { mountOpportunitiesList } from "./routes/opportunities-list.ts";

/** partner-svc's HTTP app: the platform base, the gateway-only check, one route per file. */
export function createApp(deps: PartnerDeps, options: AppOptions = {}): PartnerApp {
  return databaseServiceApp<PartnerEnv>("partner-svc", deps, options, {
    bodyLimitBytes: 1024, // read-only API: no request has a body
    context: gatewayOnly(deps),
    routes: [mountOpportunitiesList, mountEngagementsList],
  });
}
