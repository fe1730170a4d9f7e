import { databaseReady } from "@flowstate/shared/db/open-database";
import { createServiceApp } from "@flowstate/shared/http/app";
import type { MetricsRegistry } from "@flowstate/shared/http/metrics";
import type { AuditDeps } from "./deps.ts";
import { auditContext } from "./http/audit-context.ts";
import type { AuditApp, AuditEnv } from "./http/env.ts";
import { mountAuditEventsList } from "./routes/audit-events-list.ts";
import { mountUsersMeAuditEventsList } from "./routes/users-me-audit-events-list.ts";

/**
 * audit-svc's HTTP app: the platform base (request ids, body limit, probes, one error mapping),
 * the deny-by-default gateway assertion check, then one route per registry entry (mountRoute).
 * `app.test.ts` checks that the routes here and the registry are the same set.
 */
export function createApp(
  deps: AuditDeps,
  options: { metrics?: MetricsRegistry; checkResponses?: boolean } = {},
): AuditApp {
  const app = createServiceApp<AuditEnv>({
    name: "audit-svc",
    logger: deps.logger,
    metrics: options.metrics,
    checkResponses: options.checkResponses,
    bodyLimitBytes: 16 * 1024, // no route takes a body
    readiness: { database: databaseReady(deps.orm) },
  });
  app.use(auditContext(deps));
  mountAuditEventsList(app);
  mountUsersMeAuditEventsList(app);
  return app;
}
