import type { EventCatalog } from "@flowstate/contracts/events/catalog";
import type { EntityManager } from "@mikro-orm/postgresql";
import type { Database } from "../db/open-database.ts";
import type { ConsumerDefinition } from "./define-consumer.ts";

/** A declared handler; `em` is inside the transaction that records the event id, `deps` the service's. */
type Handler<Deps> = ConsumerDefinition<EntityManager, EventCatalog, Deps>["handlers"][string];

/**
 * Runs the handler and records the event id in ONE transaction (`idempotency: "handler"`: the
 * handler's own row is the record, and its answer says whether it was new). The record is inserted first: a
 * duplicate finds the row (or, when the first delivery is still in flight, waits on its unique-key
 * lock and then finds it) and becomes a no-op; a handler that throws rolls back its effect and the
 * record together, so the redelivery runs it again from scratch.
 */
export function applyEvent<Deps>(
  orm: Database,
  schema: string,
  event: { id: string },
  key: string,
  handler: Handler<Deps>,
  deps: Deps,
  idempotency: ConsumerDefinition["idempotency"] = "processed-event",
): Promise<"processed" | "duplicate"> {
  if (idempotency === "handler")
    return orm.em
      .fork()
      .transactional(async (em) =>
        (await handler(event as never, em as EntityManager, deps)) === "duplicate" ? "duplicate" : "processed",
      );
  return orm.em.fork().transactional(async (em) => {
    const res = await em.execute<{ affectedRows?: number }>(
      `INSERT INTO "${schema}".processed_event (event_id, event_key) VALUES (?, ?) ON CONFLICT (event_id) DO NOTHING`,
      [event.id, key],
      "run",
    );
    if (!res.affectedRows) return "duplicate";
    await handler(event as never, em as EntityManager, deps);
    return "processed";
  });
}

/**
 * Deletes processed-event records older than `olderThanMs`, at most `limit` per call. Keep them
 * well past the longest redelivery: SQS keeps a message at most 14 days, and a message redriven
 * from the DLQ keeps its original enqueue time, so the 30-day default leaves a wide margin.
 */
export async function pruneProcessed(
  em: EntityManager,
  schema: string,
  olderThanMs: number,
  limit = 1000,
): Promise<number> {
  const res = await em.execute<{ affectedRows?: number }>(
    `DELETE FROM "${schema}".processed_event WHERE event_id IN (
       SELECT event_id FROM "${schema}".processed_event WHERE processed_at < now() - ? * interval '1 millisecond' LIMIT ?)`,
    [olderThanMs, limit],
    "run",
  );
  return res.affectedRows ?? 0;
}
