import { z } from "zod";
import { EventActor } from "../../events/envelope.ts";
import { EventId, RequestId, Sub, TenantId } from "../../ids.ts";
import { Timestamp } from "../identity/common.ts";
import { pageCursor, pageOf, pageQuery } from "../page.ts";

/**
 * One audit row as the read API shows it (audit-svc, issue 11): who did what to whom, by opaque
 * `sub`, never an e-mail or a name. `summary` holds the event's allow-listed fields (ids, enums,
 * codes, timestamps), or null for an event that keeps none. Rows from before 2026-09-25 that name
 * people by e-mail are not served here.
 */
export const AuditEvent = z.object({
  /** The domain event's id (`evt_…`): one row per event. */
  event_id: EventId,
  type: z.string(),
  version: z.number().int().positive(),
  occurred_at: Timestamp,
  recorded_at: Timestamp,
  /** The service that emitted it, `flowstate.<service>`. */
  source: z.string(),
  tenant_id: TenantId.nullable(),
  /** Who did it: a user's `sub`, an API key (and the `sub` of the admin who answers for it), a service, or nobody signed in. */
  actor: EventActor,
  /** Whom it was about, when a person: their `sub`. */
  target_sub: Sub.nullable(),
  request_id: RequestId.nullable(),
  summary: z.record(z.string(), z.unknown()).nullable(),
});
export type AuditEvent = z.infer<typeof AuditEvent>;

/** An opaque position in a listing (base64url), valid with the same filters only. */
export const AuditCursor = pageCursor(200);

const common = {
  /** Events that occurred at or after this instant. */
  from: Timestamp.optional(),
  /** Events that occurred before this instant. */
  to: Timestamp.optional(),
  /** One event type, e.g. `MembershipAdded`. */
  type: z
    .string()
    .regex(/^[A-Z][A-Za-z]+$/, "expected an event type such as MembershipAdded")
    .optional(),
  ...pageQuery(AuditCursor),
};

/** `GET /v1/tenants/{id}/audit-events`: newest first, filtered by time range, type and actor. */
export const TenantAuditQuery = z.object({
  ...common,
  /** Events whose actor is this person (signed in, or through an API key they answer for). */
  actor_sub: Sub.optional(),
});
export type TenantAuditQuery = z.infer<typeof TenantAuditQuery>;

/** `GET /v1/users/me/audit-events`: the caller's events as target, newest first. */
export const MyAuditQuery = z.object(common);
export type MyAuditQuery = z.infer<typeof MyAuditQuery>;

export const AuditEventList = pageOf(AuditEvent, AuditCursor);
export type AuditEventList = z.infer<typeof AuditEventList>;
