import { databaseReady } from "@flowstate/shared/db/open-database";
import { createServiceApp } from "@flowstate/shared/http/app";
import type { MetricsRegistry } from "@flowstate/shared/http/metrics";
import type { PrivacyDeps } from "./deps.ts";
import type { PrivacyApp, PrivacyEnv } from "./http/env.ts";
import { privacyContext } from "./http/privacy-context.ts";
import { mountUsersMeExportCreate } from "./routes/users-me-export-create.ts";
import { mountUsersMeExportGet } from "./routes/users-me-export-get.ts";

/**
 * privacy-svc's HTTP app: the platform base (request ids, body limit, probes, one error mapping),
 * the deny-by-default gateway assertion check, then one route per registry entry (mountRoute).
 * `app.test.ts` checks that the routes here and the registry are the same set; `checkResponses`
 * (tests) checks every answer against its schema.
 */
export function createApp(
  deps: PrivacyDeps,
  options: { metrics?: MetricsRegistry; checkResponses?: boolean } = {},
): PrivacyApp {
  const app = createServiceApp<PrivacyEnv>({
    name: "privacy-svc",
    logger: deps.logger,
    metrics: options.metrics,
    checkResponses: options.checkResponses,
    bodyLimitBytes: 16 * 1024, // neither route takes a body
    readiness: { database: databaseReady(deps.orm) },
  });
  app.use(privacyContext(deps));
  mountUsersMeExportCreate(app);
  mountUsersMeExportGet(app);
  return app;
}
