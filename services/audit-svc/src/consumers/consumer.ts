import { defineConsumer } from "@flowstate/shared/consumer/define-consumer";
import type { Logger } from "@flowstate/shared/log/logger";
import { recordEvent } from "../verbs/record-event.ts";
import { recordToolCalls } from "../verbs/record-tool-calls.ts";

/** What the audit consumer's handler needs: the schema it writes to and the logger. */
export interface AuditConsumerDeps {
  schema: string;
  logger: Logger;
}

/**
 * audit-svc's consumer (queue `<prefix>-<stage>-audit-svc`, every domain event): one audit row per
 * event (`consumes: "all"` in the services catalog): one handler for every type and version, and
 * the row is the idempotency record (`idempotency: "handler"`): one database row per event. A batch
 * of MCP tool calls (`McpToolCallsRecorded`) is the one exception: a row per call (ADR 0018).
 */
export const auditConsumer = defineConsumer<AuditConsumerDeps>()({
  service: "audit-svc",
  idempotency: "handler",
  handleEvery: (event, em, deps) =>
    event.type === "McpToolCallsRecorded"
      ? recordToolCalls(em, deps.schema, event, deps.logger)
      : recordEvent(em, deps.schema, event, deps.logger),
});
