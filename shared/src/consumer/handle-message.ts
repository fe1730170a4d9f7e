import type { Message } from "@aws-sdk/client-sqs";
import type { EventCatalog } from "@flowstate/contracts/events/catalog";
import type { EntityManager } from "@mikro-orm/postgresql";
import type { Database } from "../db/open-database.ts";
import type { Logger } from "../log/logger.ts";
import { applyEvent } from "./apply-event.ts";
import type { DeadLetterer, DeadLetterReason } from "./dead-letter.ts";
import { type DecodedEvent, decodeMessage } from "./decode-message.ts";
import type { ConsumerDefinition } from "./define-consumer.ts";
import type { ConsumerStats } from "./stats.ts";

/**
 * "ack": delete the message; "keep": leave it for redelivery and, after maxReceiveCount, the DLQ;
 * "gone": already moved to the DLQ and deleted (it can never be handled, see dead-letter.ts).
 */
export type Outcome = "ack" | "keep" | "gone";

/**
 * Decides one message: decode and validate, find the handler, apply it idempotently. A message
 * that fails validation or has no handler goes to the DLQ at once; a handler error is left for
 * redelivery. Both are logged with a reason and ids only, never the body.
 */
export function messageHandler<Deps>(o: {
  orm: Database;
  schema: string;
  definition: ConsumerDefinition<EntityManager, EventCatalog, Deps>;
  /** The service's deps, handed to every handler. */
  deps: Deps;
  log: Logger;
  stats: ConsumerStats;
  deadLetter: DeadLetterer;
}) {
  const { orm, schema, definition, log, stats, deadLetter } = o;

  const refuse = async (m: Message, reason: DeadLetterReason, context: Record<string, unknown>): Promise<Outcome> => {
    stats.rejected++;
    const moved = await deadLetter.send(m, reason, context);
    if (moved) stats.deadLettered++;
    return moved ? "gone" : "keep";
  };

  async function handleOne(m: Message, sameBatch: Map<string, Promise<Outcome>>): Promise<Outcome> {
    const receiveCount = Number(m.Attributes?.ApproximateReceiveCount ?? 0);
    const decoded = decodeMessage(m.Body, definition.catalog);
    if (!decoded.ok) return refuse(m, decoded.reason, { issues: decoded.issues, receive_count: receiveCount });
    const { event, key } = decoded;
    // Two copies of one event in one receive: run it once and give both copies its outcome. Running
    // both would make the second wait on the first's processed-event row lock while holding a pooled
    // connection, and a batch of such waiters can exhaust the pool and deadlock.
    const twin = sameBatch.get(event.id);
    if (twin) {
      const outcome = await twin;
      if (outcome === "ack") stats.duplicates++;
      return outcome;
    }
    // Own keys only: an event key that names an Object.prototype member is not a handler.
    if (!Object.hasOwn(definition.handlers, key)) {
      return refuse(m, "no_handler", { event_id: event.id, event_key: key, receive_count: receiveCount });
    }
    const outcome = apply(event, key, receiveCount);
    sameBatch.set(event.id, outcome);
    return outcome;
  }

  async function apply(event: DecodedEvent, key: string, receiveCount: number): Promise<Outcome> {
    const handler = definition.handlers[key]!;
    try {
      const outcome = await applyEvent(orm, schema, event, key, handler, o.deps, definition.idempotency);
      if (outcome === "duplicate") stats.duplicates++;
      else stats.processed++;
      log.debug({ event_id: event.id, event_key: key, outcome }, "event handled");
      return "ack";
    } catch (err) {
      stats.failed++;
      log.error(
        { reason: "handler_error", event_id: event.id, event_key: key, receive_count: receiveCount, err },
        "handler failed",
      );
      return "keep";
    }
  }

  return handleOne;
}
