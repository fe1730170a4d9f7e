import { routeIn } from "@flowstate/contracts/rest/route";
import { auditRoutes } from "@flowstate/contracts/rest/routes";
import { mountRoute } from "@flowstate/shared/http/mount-route";
import type { AuditApp } from "../http/env.ts";
import { listMyAuditEvents } from "../verbs/list-audit-events.ts";

export function mountUsersMeAuditEventsList(app: AuditApp): void {
  mountRoute(app, routeIn(auditRoutes, "users.me.audit_events.list"), async ({ query }, c) => ({
    status: 200,
    body: await listMyAuditEvents(c.get("call"), query),
  }));
}
