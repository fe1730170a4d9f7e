import { routeIn } from "@flowstate/contracts/rest/route";
import { auditRoutes } from "@flowstate/contracts/rest/routes";
import { mountRoute } from "@flowstate/shared/http/mount-route";
import type { AuditApp } from "../http/env.ts";
import { listTenantAuditEvents } from "../verbs/list-audit-events.ts";

export function mountAuditEventsList(app: AuditApp): void {
  mountRoute(app, routeIn(auditRoutes, "audit_events.list"), async ({ params, query }, c) => ({
    status: 200,
    body: await listTenantAuditEvents(c.get("call"), params.id, query),
  }));
}
