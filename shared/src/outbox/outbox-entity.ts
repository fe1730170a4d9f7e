import { defineEntity, p } from "@mikro-orm/postgresql";

/**
 * A pending or sent domain event in the service's own schema (table created by
 * `platformMigrations`). Only the columns the unit of work writes are mapped; the relay reads and
 * updates the rest (`seq`, attempts, `next_attempt_at`, `sent_at`) with plain SQL.
 */
export const OutboxEvent = defineEntity({
  name: "OutboxEvent",
  tableName: "outbox_event",
  properties: {
    id: p.string().primary(),
    event_key: p.string().fieldName("event_key"),
    envelope: p.json<Record<string, unknown>>(),
  },
});
