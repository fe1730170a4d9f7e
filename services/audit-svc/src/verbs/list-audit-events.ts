import type { EventActor } from "@flowstate/contracts/events/envelope";
import type { AuditEvent, MyAuditQuery, TenantAuditQuery } from "@flowstate/contracts/rest/audit/audit-events";
import { cursorBigint, cursorTimestamp, pageCursorCodec } from "@flowstate/shared/http/page-cursor";
import type { CallContext } from "@flowstate/shared/seam/call-context";
import { z } from "zod";
import type { AuditDeps } from "../deps.ts";

type Call = CallContext<AuditDeps>;

type Row = {
  id: string;
  event_id: string;
  event_type: string;
  event_version: number;
  occurred_at: string;
  recorded_at: string;
  source: string;
  tenant_id: string | null;
  actor_kind: EventActor["kind"];
  actor_sub: string | null;
  actor_key_id: string | null;
  actor_service: string | null;
  target_sub: string | null;
  request_id: string | null;
  summary: Record<string, unknown> | null;
};

/** A position in a listing: the last row's exact `occurred_at` (PostgreSQL's JSON text, microseconds kept) and id. */
const cursor = pageCursorCodec(z.tuple([cursorTimestamp, cursorBigint]));

const actorOf = (r: Row): EventActor => {
  switch (r.actor_kind) {
    case "user":
      return { kind: "user", sub: r.actor_sub! };
    case "api_key":
      return { kind: "api_key", key_id: r.actor_key_id!, sub: r.actor_sub! };
    case "system":
      return { kind: "system", service: r.actor_service! };
    case "anonymous":
      return { kind: "anonymous" };
  }
};

const view = (r: Row): AuditEvent => ({
  event_id: r.event_id,
  type: r.event_type,
  version: r.event_version,
  occurred_at: new Date(r.occurred_at).toISOString(),
  recorded_at: new Date(r.recorded_at).toISOString(),
  source: r.source,
  tenant_id: r.tenant_id,
  actor: actorOf(r),
  target_sub: r.target_sub,
  request_id: r.request_id,
  summary: r.summary,
});

/**
 * One page of audit rows matching `where` (a column = value map, all ANDed), newest first, keyset
 * pagination on (occurred_at, id): a page never repeats or skips a row while new rows arrive.
 */
async function page(
  call: Call,
  where: Record<string, string>,
  query: MyAuditQuery,
): Promise<{ items: AuditEvent[]; next_cursor: string | null }> {
  const after = query.cursor ? cursor.decode(query.cursor) : null;
  const conditions: string[] = [];
  const params: unknown[] = [];
  const and = (condition: string, ...values: unknown[]) => {
    conditions.push(condition);
    params.push(...values);
  };
  for (const [column, value] of Object.entries(where)) and(`${column} = ?`, value);
  if (query.from) and("occurred_at >= ?::timestamptz", query.from);
  if (query.to) and("occurred_at < ?::timestamptz", query.to);
  if (query.type) and("event_type = ?", query.type);
  if (after) and("(occurred_at, id) < (?::timestamptz, ?::bigint)", ...after);
  const rows = await call.deps.orm.em.fork().execute<Row[]>(
    `SELECT id::text AS id, event_id, event_type, event_version, to_jsonb(occurred_at) #>> '{}' AS occurred_at,
            recorded_at, source, tenant_id, actor_kind, actor_sub, actor_key_id, actor_service, target_sub,
            request_id, summary
       FROM ${call.table("audit_event")} e
      WHERE ${conditions.join(" AND ")}
      -- Qualified: bare names would sort by the text output columns above ("9" after "10"), out of
      -- step with the keyset condition, which compares the real timestamp and bigint.
      ORDER BY e.occurred_at DESC, e.id DESC
      LIMIT ?`,
    [...params, query.limit + 1],
  );
  const more = rows.length > query.limit;
  const items = more ? rows.slice(0, query.limit) : rows;
  const last = items[items.length - 1];
  return { items: items.map(view), next_cursor: more && last ? cursor.encode([last.occurred_at, last.id]) : null };
}

/**
 * A tenant's audit trail, for its admins and owner and for its write-scoped API keys: the route's
 * declared access (the seam, from the registry) admitted the caller for this tenant.
 */
export function listTenantAuditEvents(call: Call, tenantId: string, query: TenantAuditQuery) {
  return page(call, { tenant_id: tenantId, ...(query.actor_sub ? { actor_sub: query.actor_sub } : {}) }, query);
}

/** The caller's own events as target (any tenant): a signed-in user only (the route is `auth: "user"`). */
export function listMyAuditEvents(call: Call, query: MyAuditQuery) {
  if (call.caller.kind !== "user") throw new Error("users.me.audit_events.list reached without a user");
  return page(call, { target_sub: call.caller.sub }, query);
}
