import type { CatalogEvent, eventCatalog } from "@flowstate/contracts/events/catalog";
import type { HandlerResult } from "@flowstate/shared/consumer/define-consumer";
import type { Logger } from "@flowstate/shared/log/logger";
import type { EntityManager } from "@mikro-orm/postgresql";
import { recordEvent } from "./record-event.ts";

type Production = typeof eventCatalog;
type ToolCallsRecorded = CatalogEvent<Production, "McpToolCallsRecorded.v1">;
type ToolCalled = CatalogEvent<Production, "McpToolCalled.v1">;

/**
 * The single `McpToolCalled.v1` event each call of a batch stands for (ADR 0018): the call's own
 * id, time, actor and request id, the caller as subject, and the batch's source. A batch is a way
 * of carrying calls, not a fact of its own, so the trail's unit stays one call.
 */
export function toolCallEvents(batch: ToolCallsRecorded): ToolCalled[] {
  return batch.data.calls.map(({ id, occurred_at, actor, request_id, ...call }) => ({
    id,
    type: "McpToolCalled",
    version: 1,
    source: batch.source,
    occurred_at,
    ...(call.tenant_id ? { tenant_id: call.tenant_id } : {}),
    actor,
    subject: actor.sub,
    request_id,
    data: { ...call, sub: actor.sub },
  }));
}

/**
 * Writes one audit row per call of the batch, in the consumer's transaction (so a batch is
 * recorded whole or not at all), each keyed by the call's event id: a redelivered batch inserts
 * nothing and answers "duplicate", and a call already recorded under its own id (an older gateway's
 * `McpToolCalled` during a rolling deploy cannot share ids with a batch) is not written twice.
 */
export async function recordToolCalls(
  em: EntityManager,
  schema: string,
  batch: ToolCallsRecorded,
  logger: Logger,
): Promise<HandlerResult> {
  let written = 0;
  for (const event of toolCallEvents(batch))
    if ((await recordEvent(em, schema, event, logger)) !== "duplicate") written++;
  return written ? undefined : "duplicate";
}
