import type { EventEnvelope } from "@flowstate/contracts/events/envelope";
import { newId } from "@flowstate/shared/ids/new-id";
import { qualifiedTable } from "@flowstate/shared/seam/table";
import type { EntityManager } from "@mikro-orm/postgresql";
import { wakeOnCommit } from "../delivery/wake.ts";
import type { NotifyDeps } from "../deps.ts";
import type { Message } from "../messages/message-of.ts";
import { notifyTombstones } from "./forget-tenant.ts";

/** The message id (Standard Webhooks' `webhook-id`) of an event: derived from it, so it is stable. */
export const messageIdOf = (eventId: string) => `msg_${eventId.slice("evt_".length)}`;

/**
 * In the consumer's transaction: records what the event tells the tenant, fixing the body once
 * (`{ type, timestamp, data }`, the Standard Webhooks payload shape), and queues one delivery per
 * enabled endpoint of the tenant that takes its kind, due now; the commit wakes the worker. One
 * message per event id, so a redelivered event adds nothing; none for a tenant forgotten
 * (forget-tenant.ts).
 */
export async function enqueueMessage(
  em: EntityManager,
  deps: NotifyDeps,
  event: Pick<EventEnvelope, "id" | "occurred_at">,
  message: Message | null,
): Promise<void> {
  if (!message) return;
  // A soft-deleted tenant's late event: nothing is recorded, nobody is told.
  if (await notifyTombstones(deps).forgotten(em, message.tenantId)) return;
  await recordMessage(em, deps, event, message);
}

/** enqueueMessage's work, for a caller that has checked the tenant itself in this transaction (offer-result.ts). */
export async function recordMessage(
  em: EntityManager,
  deps: NotifyDeps,
  event: Pick<EventEnvelope, "id" | "occurred_at">,
  message: Message,
): Promise<void> {
  const [m, e, d] = ["message", "endpoint", "delivery"].map((t) => qualifiedTable(deps.schema, t));
  const id = messageIdOf(event.id);
  const body = JSON.stringify({ type: message.type, timestamp: event.occurred_at, data: message.data });
  // Without a conflict target: the id is derived from the event id too, so a duplicate can collide
  // on either unique index, and PostgreSQL checks only the named one before inserting (two
  // consumers of one event at once would otherwise fail one of them on message_pkey).
  const fresh = await em.execute<{ id: string }[]>(
    `INSERT INTO ${m} (id, tenant_id, event_id, type, body) VALUES (?, ?, ?, ?, ?)
     ON CONFLICT DO NOTHING RETURNING id`,
    [id, message.tenantId, event.id, message.type, body],
  );
  if (fresh.length === 0) return;
  const endpoints = await em.execute<{ id: string }[]>(
    `SELECT id FROM ${e} WHERE tenant_id = ? AND status = 'enabled' AND ? = ANY (types)`,
    [message.tenantId, message.type],
  );
  if (endpoints.length === 0) return;
  for (const endpoint of endpoints)
    await em.execute(
      `INSERT INTO ${d} (id, tenant_id, endpoint_id, message_id, next_attempt_at) VALUES (?, ?, ?, ?, now())`,
      [newId("dlv", { timeOrdered: true }), message.tenantId, endpoint.id, id],
    );
  await wakeOnCommit(em, deps.schema);
}
