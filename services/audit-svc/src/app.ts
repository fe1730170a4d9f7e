import { type AppOptions, databaseServiceApp } from "@flowstate/shared/http/database-service-app";
import type { AuditDeps } from "./deps.ts";
import type { AuditApp, AuditEnv } from "./http/env.ts";
import { mountAuditEventsList } from "./routes/audit-events-list.ts";
import { mountUsersMeAuditEventsList } from "./routes/users-me-audit-events-list.ts";

/**
 * audit-svc's HTTP app: the platform base (request ids, body limit, probes, one error mapping),
 * the seam (the caller verified, each route's declared access applied: the tenant trail for admins
 * and write keys, the own trail for users), then one route per registry entry (mountRoute).
 * `app.test.ts` checks that the routes here and the registry are the same set.
 */
export function createApp(deps: AuditDeps, options: AppOptions = {}): AuditApp {
  return databaseServiceApp<AuditEnv>("audit-svc", deps, options, {
    bodyLimitBytes: 16 * 1024, // no route takes a body
    // Reads only: no credential check, so a write for a caller would fail closed.
    seam: { service: "audit-svc", deps },
    routes: [mountAuditEventsList, mountUsersMeAuditEventsList],
  });
}
