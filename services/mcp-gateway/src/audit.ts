import { type EventBridgeClient, PutEventsCommand } from "@aws-sdk/client-eventbridge";
import { eventCatalog } from "@flowstate/contracts/events/catalog";
import { type EventActor, EventEnvelope } from "@flowstate/contracts/events/envelope";
import type { CallerIdentity } from "@flowstate/edge-gateway/auth/authenticate";
import type { Logger } from "@flowstate/shared/log/logger";
import { newEventId } from "@flowstate/shared/outbox/event-id";

export interface ToolCallRecord {
  tool: string;
  identity: CallerIdentity;
  tenantId: string | undefined;
  outcome: "ok" | "error" | "denied";
  code?: string | undefined;
  durationMs: number;
  requestId: string;
}

export interface AuditSink {
  record(call: ToolCallRecord): void;
}

/** The audit envelope of one tool call (validated as the outbox validates; never the arguments). */
export function toolCallEnvelope(call: ToolCallRecord): EventEnvelope {
  const actor: EventActor =
    call.identity.kind === "api_key"
      ? { kind: "api_key", key_id: call.identity.key_id, sub: call.identity.sub }
      : { kind: "user", sub: call.identity.sub };
  return EventEnvelope.parse({
    id: newEventId(),
    type: "McpToolCalled",
    version: 1,
    source: "flowstate.mcp-gateway",
    occurred_at: new Date().toISOString(),
    ...(call.tenantId ? { tenant_id: call.tenantId } : {}),
    actor,
    subject: call.identity.sub,
    request_id: call.requestId,
    data: eventCatalog["McpToolCalled.v1"].parse({
      tool: call.tool,
      ...(call.tenantId ? { tenant_id: call.tenantId } : {}),
      sub: call.identity.sub,
      outcome: call.outcome,
      ...(call.code ? { code: call.code } : {}),
      duration_ms: Math.round(call.durationMs),
    }),
  });
}

/**
 * Publishes McpToolCalled events to the domain bus without a database (the way partner-inbound
 * publishes): buffered, sent in PutEvents batches of 10 at most every `flushMs`, best effort. A
 * tool call never waits for its audit event; an entry EventBridge refuses, or a call that throws,
 * is counted in `failed` (exported as `mcp_audit_publish_failures_total`) and logged without
 * content. Why not the outbox: mcp-gateway owns no database, and a tool call's effects are
 * already recorded by the owning service's own outbox events; this event is the who-called-what trail.
 */
export class AuditPublisher implements AuditSink {
  readonly stats = { published: 0, failed: 0 };
  #buffer: EventEnvelope[] = [];
  #timer: NodeJS.Timeout | undefined;
  #inFlight = new Set<Promise<void>>();

  readonly o: { eventBridge: EventBridgeClient; busName: string; logger: Logger; flushMs?: number };

  constructor(options: AuditPublisher["o"]) {
    this.o = options;
  }

  record(call: ToolCallRecord): void {
    this.#buffer.push(toolCallEnvelope(call));
    if (this.#buffer.length >= 10) this.#flush();
    else this.#timer ??= setTimeout(() => this.#flush(), this.o.flushMs ?? 200);
  }

  /** Sends what is buffered and waits for every batch in flight (shutdown, tests). */
  async drain(): Promise<void> {
    while (this.#buffer.length) this.#flush();
    await Promise.all(this.#inFlight);
  }

  #flush(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    const batch = this.#buffer.splice(0, 10);
    if (!batch.length) return;
    const sending = this.#send(batch).finally(() => this.#inFlight.delete(sending));
    this.#inFlight.add(sending);
  }

  async #send(batch: EventEnvelope[]): Promise<void> {
    try {
      const res = await this.o.eventBridge.send(
        new PutEventsCommand({
          Entries: batch.map((e) => ({
            EventBusName: this.o.busName,
            Source: e.source,
            DetailType: e.type,
            Detail: JSON.stringify(e),
          })),
        }),
      );
      const failed = res.FailedEntryCount ?? 0;
      this.stats.published += batch.length - failed;
      this.stats.failed += failed;
      if (failed) this.o.logger.warn({ failed }, "audit events refused by the bus");
    } catch (err) {
      this.stats.failed += batch.length;
      this.o.logger.warn({ count: batch.length, error: (err as Error).name }, "audit events not published");
    }
  }
}
