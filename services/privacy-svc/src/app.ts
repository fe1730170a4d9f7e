import { type AppOptions, databaseServiceApp } from "@flowstate/shared/http/database-service-app";
import type { PrivacyDeps } from "./deps.ts";
import type { PrivacyApp, PrivacyEnv } from "./http/env.ts";
import { mountUsersMeExportCreate } from "./routes/users-me-export-create.ts";
import { mountUsersMeExportGet } from "./routes/users-me-export-get.ts";

/**
 * privacy-svc's HTTP app: the platform base (request ids, body limit, probes, one error mapping),
 * the seam (the caller verified; both routes are `auth: user`, so an API key is refused there; a
 * write re-checks the user's session with identity-svc), then one route per registry entry.
 * `app.test.ts` checks that the routes here and the registry are the same set; `checkResponses`
 * (tests) checks every answer against its schema.
 */
export function createApp(deps: PrivacyDeps, options: AppOptions = {}): PrivacyApp {
  return databaseServiceApp<PrivacyEnv>("privacy-svc", deps, options, {
    bodyLimitBytes: 16 * 1024, // neither route takes a body
    seam: { service: "privacy-svc", deps, credentials: deps.credentials },
    routes: [mountUsersMeExportCreate, mountUsersMeExportGet],
  });
}
