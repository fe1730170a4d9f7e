import { type CatalogEvent, type EventCatalog, eventCatalog } from "@flowstate/contracts/events/catalog";
import { type EventActor, EventEnvelope } from "@flowstate/contracts/events/envelope";
import type { EntityManager } from "@mikro-orm/postgresql";
import type { z } from "zod";
import { newEventId } from "./event-id.ts";
import { OutboxEvent } from "./outbox-entity.ts";

export interface EnqueueMeta {
  /** `flowstate.<service>`: becomes the EventBridge `Source`. */
  source: string;
  tenant_id?: string | undefined;
  /**
   * Who did it: `eventActorOf(identity)` for a caller, `systemActor("<service>")` for a consumer or
   * job. Required: audit-svc records it as the acting `sub`.
   */
  actor: EventActor;
  /** The `sub` the event is about (the member added, the account deleted), when it is about a person. */
  subject?: string | undefined;
  /** The request that caused the event (`ctx.requestId`), when there was one. */
  request_id?: string | undefined;
  /** W3C traceparent of the request that caused the event. */
  trace?: string | undefined;
}

/**
 * Adds an event to the caller's unit of work: the outbox row is written by the same flush/commit as
 * the state change, so a rolled-back change publishes nothing and a committed one is published by
 * the relay. `data` is checked against the catalog now, so a bad payload fails the request that
 * produced it rather than every consumer later. Throws (a programming error, not a client error)
 * when the payload or envelope is invalid.
 *
 * Note that `em.execute()` does not flush; call this with the EntityManager of your
 * `em.transactional(...)` block (or flush it yourself).
 *
 * @example
 * await orm.em.fork().transactional(async (em) => {
 *   em.create(Tenant, { id, name });
 *   enqueueEvent(em, "TenantCreated.v1", { tenant_id: id, owner_sub: sub }, {
 *     source: "flowstate.identity", tenant_id: id, actor: eventActorOf(identity), subject: sub, request_id: requestId,
 *   });
 * });
 */
export function enqueueEvent<
  C extends EventCatalog = typeof eventCatalog,
  K extends keyof C & string = keyof C & string,
>(
  em: EntityManager,
  key: K,
  data: z.input<C[K]>,
  meta: EnqueueMeta,
  /** The production catalog; the platform's own event-path tests pass `testEventCatalog`. */
  catalog: C = eventCatalog as unknown as C,
): CatalogEvent<C, K> {
  const row = outboxRow(key, data, meta, catalog);
  em.create(OutboxEvent, row);
  return row.envelope as unknown as CatalogEvent<C, K>;
}

/** One outbox row, ready to insert: the event's id, its catalog key and its checked envelope. */
export interface OutboxRow {
  id: string;
  event_key: string;
  envelope: Record<string, unknown>;
}

/**
 * The outbox row of an event, checked exactly as `enqueueEvent` checks it, for a statement that
 * inserts it itself (`outboxInsert`, outbox-insert.ts) rather than through the unit of work.
 * Throws (a programming error) when the payload or envelope is invalid.
 */
export function outboxRow<C extends EventCatalog = typeof eventCatalog, K extends keyof C & string = keyof C & string>(
  key: K,
  data: z.input<C[K]>,
  meta: EnqueueMeta,
  catalog: C = eventCatalog as unknown as C,
): OutboxRow {
  const schema = (Object.hasOwn(catalog, key) ? catalog[key] : undefined) as z.ZodType | undefined;
  if (!schema) throw new Error(`unknown event ${key}: add it to contracts/src/events/catalog.ts`);
  const parsedData = schema.safeParse(data);
  if (!parsedData.success) {
    throw new Error(`event ${key} data does not match the catalog: ${formatIssues(parsedData.error.issues)}`);
  }
  const match = /^(.+)\.v(\d+)$/.exec(key);
  const envelope = EventEnvelope.safeParse({
    id: newEventId(),
    type: match?.[1],
    version: Number(match?.[2]),
    source: meta.source,
    occurred_at: new Date().toISOString(),
    ...(meta.tenant_id !== undefined ? { tenant_id: meta.tenant_id } : {}),
    actor: meta.actor,
    ...(meta.subject !== undefined ? { subject: meta.subject } : {}),
    ...(meta.request_id !== undefined ? { request_id: meta.request_id } : {}),
    ...(meta.trace !== undefined ? { trace: meta.trace } : {}),
    data: parsedData.data,
  });
  if (!envelope.success) {
    throw new Error(`event ${key} envelope is invalid: ${formatIssues(envelope.error.issues)}`);
  }
  return { id: envelope.data.id, event_key: key, envelope: envelope.data as Record<string, unknown> };
}

// Paths and messages only: never the offending values, which may be personal data.
function formatIssues(issues: z.core.$ZodIssue[]): string {
  return issues.map((i) => `${i.path.join(".") || "(root)"}: ${i.message}`).join("; ");
}
