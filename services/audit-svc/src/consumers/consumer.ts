import { type EventKey, eventCatalog } from "@flowstate/contracts/events/catalog";
import { defineConsumer } from "@flowstate/shared/consumer/define-consumer";
import type { Logger } from "@flowstate/shared/log/logger";
import type { EntityManager } from "@mikro-orm/postgresql";
import { recordEvent } from "../verbs/record-event.ts";

/** The bootstrap's view of the consumer (deploy/local/consumers.ts): every Flowstate event. */
export const auditSubscription = { service: "audit-svc", events: "all" } as const;

/**
 * audit-svc's consumer (queue `<prefix>-<stage>-audit-svc`, every domain event): one audit row per
 * event. The handler map is built from the catalog itself, so every type and version has one, and
 * the row is the idempotency record (`idempotency: "handler"`): one database row per event.
 */
export const auditConsumer = (schema: string, logger: Logger) => {
  const record = (event: Parameters<typeof recordEvent>[2], em: EntityManager) =>
    recordEvent(em, schema, event, logger);
  const handlers = Object.fromEntries((Object.keys(eventCatalog) as EventKey[]).map((key) => [key, record]));
  return defineConsumer({
    service: auditSubscription.service,
    events: auditSubscription.events,
    idempotency: "handler",
    handlers: handlers as Parameters<typeof defineConsumer>[0]["handlers"],
  });
};
