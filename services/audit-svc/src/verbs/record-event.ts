import { type DomainEvent, eventKey } from "@flowstate/contracts/events/catalog";
import type { HandlerResult } from "@flowstate/shared/consumer/define-consumer";
import type { Logger } from "@flowstate/shared/log/logger";
import type { EntityManager } from "@mikro-orm/postgresql";
import { summarize } from "../summary/allow-list.ts";

/**
 * Writes the audit row of one domain event, in the consumer's transaction, and is the consumer's
 * idempotency record: `ON CONFLICT (event_id) DO NOTHING`, so a redelivered event writes nothing
 * and answers "duplicate" (a copy in flight waits on the first's unique-key lock, then does so).
 *
 * People are the envelope's `actor` (its `sub`, the key id for an API key, the service for the
 * system) and `subject` (the target); the event's data contributes only its allow-listed summary.
 * The shared advisory lock (migration 0002) keeps the archive's horizon behind this row until it
 * commits; it is taken before the id is.
 */
export async function recordEvent(
  em: EntityManager,
  schema: string,
  event: DomainEvent,
  logger: Logger,
): Promise<HandlerResult> {
  const key = eventKey(event.type, event.version);
  const { summary, dropped } = summarize(key, event.data);
  if (dropped.length) logger.warn({ event_id: event.id, event_key: key, dropped }, "summary fields left out");
  const actor = event.actor;
  const s = `"${schema}"`;
  const res = await em.execute<{ affectedRows?: number }>(
    `INSERT INTO ${s}.audit_event (id, event_id, event_type, event_version, occurred_at, source, tenant_id,
       actor_kind, actor_sub, actor_key_id, actor_service, target_sub, request_id, summary)
     SELECT nextval('${s}.audit_row_id'), ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?::jsonb
       FROM (SELECT pg_advisory_xact_lock_shared(k[1], k[2]) FROM ${s}.audit_row_lock_key() AS k) AS held
     ON CONFLICT (event_id) DO NOTHING`,
    [
      event.id,
      event.type,
      event.version,
      event.occurred_at,
      event.source,
      event.tenant_id ?? null,
      actor.kind,
      actor.kind === "user" || actor.kind === "api_key" ? actor.sub : null,
      actor.kind === "api_key" ? actor.key_id : null,
      actor.kind === "system" ? actor.service : null,
      event.subject ?? null,
      event.request_id ?? null,
      summary ? JSON.stringify(summary) : null,
    ],
    "run",
  );
  return res.affectedRows ? undefined : "duplicate";
}
