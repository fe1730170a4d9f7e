import { type AppOptions, databaseServiceApp } from "@flowstate/shared/http/database-service-app";
import type { PartnerDeps } from "./deps.ts";
import type { PartnerApp, PartnerEnv } from "./http/env.ts";
import { mountEngagementsList } from "./routes/engagements-list.ts";
import { mountOpportunitiesList } from "./routes/opportunities-list.ts";

/**
 * partner-svc's HTTP app: the platform base, the seam (the caller verified, each route's declared
 * access applied: the tenant rule of its two read routes), one route per file. Reads only: no
 * credential check is configured, so a write for a caller would fail closed.
 */
export function createApp(deps: PartnerDeps, options: AppOptions = {}): PartnerApp {
  return databaseServiceApp<PartnerEnv>("partner-svc", deps, options, {
    bodyLimitBytes: 1024, // read-only API: no request has a body
    seam: { service: "partner-svc", deps },
    routes: [mountOpportunitiesList, mountEngagementsList],
  });
}
