import { defineConsumer } from "@flowstate/shared/consumer/define-consumer";
import type { Logger } from "@flowstate/shared/log/logger";
import type { EntityManager } from "@mikro-orm/postgresql";
import { recordEvent } from "../verbs/record-event.ts";

/**
 * audit-svc's consumer (queue `<prefix>-<stage>-audit-svc`, every domain event): one audit row per
 * event (`consumes: "all"` in the services catalog): one handler for every type and version, and
 * the row is the idempotency record (`idempotency: "handler"`): one database row per event.
 */
export const auditConsumer = (schema: string, logger: Logger) => {
  return defineConsumer({
    service: "audit-svc",
    idempotency: "handler",
    handleEvery: (event, em: EntityManager) => recordEvent(em, schema, event, logger),
  });
};
