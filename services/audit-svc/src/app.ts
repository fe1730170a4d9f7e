import { type AppOptions, databaseServiceApp } from "@flowstate/shared/http/database-service-app";
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
export function createApp(deps: AuditDeps, options: AppOptions = {}): AuditApp {
  return databaseServiceApp<AuditEnv>("audit-svc", deps, options, {
    bodyLimitBytes: 16 * 1024, // no route takes a body
    context: auditContext(deps),
    routes: [mountAuditEventsList, mountUsersMeAuditEventsList],
  });
}
