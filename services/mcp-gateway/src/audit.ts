import { type EventBridgeClient, PutEventsCommand } from "@aws-sdk/client-eventbridge";
import { eventCatalog } from "@flowstate/contracts/events/catalog";
import { type EventActor, EventEnvelope } from "@flowstate/contracts/events/envelope";
import type { CallerIdentity } from "@flowstate/edge-gateway/pipeline";
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

/** The audit envelope of one tool call made at `at` (validated as the outbox validates; never the arguments). */
export function toolCallEnvelope(call: ToolCallRecord, at = new Date()): EventEnvelope {
  const actor: EventActor =
    call.identity.kind === "api_key"
      ? { kind: "api_key", key_id: call.identity.key_id, sub: call.identity.sub }
      : { kind: "user", sub: call.identity.sub };
  return EventEnvelope.parse({
    id: newEventId(),
    type: "McpToolCalled",
    version: 1,
    source: "flowstate.mcp-gateway",
    occurred_at: at.toISOString(),
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

export interface AuditPublisherOptions {
  eventBridge: EventBridgeClient;
  busName: string;
  logger: Logger;
  /** The longest a partial batch waits (default 200 ms). */
  flushMs?: number;
  /** PutEvents requests at once (default 4); more calls wait in the buffer (a bus that slows must not get a request per 10 calls). */
  maxInFlight?: number;
  /** Calls kept waiting at most (default 10,000); past it the newest are dropped and counted (memory stays bounded if the bus is down). */
  maxBuffered?: number;
}

/**
 * Publishes McpToolCalled events to the domain bus without a database (the way partner-inbound
 * publishes): buffered, sent in PutEvents batches of 10 at most every `flushMs`, best effort. A
 * tool call never waits for its audit event, nor pays for building it: `record` keeps the call's
 * facts and time, and the envelopes are built and validated when their batch is sent, after the
 * answer went out (on the request path they cost about as much CPU as the pipeline's own checks,
 * bench/70-mcp.bench.ts). An entry EventBridge refuses, or a batch that throws, is counted in
 * `failed` (exported as `mcp_audit_publish_failures_total`) and logged without content. Why not the outbox: mcp-gateway owns no database, and a tool call's effects are
 * already recorded by the owning service's own outbox events; this event is the who-called-what trail.
 * At most `maxInFlight` PutEvents at once (under load the calls wait in the buffer and go in full
 * batches), and at most `maxBuffered` calls waiting: past that they are dropped and counted.
 */
export class AuditPublisher implements AuditSink {
  /** `requests`: PutEvents calls made (under load a tenth of the tool calls: full batches of 10). */
  readonly stats = { published: 0, failed: 0, dropped: 0, requests: 0 };
  #buffer: { call: ToolCallRecord; at: Date }[] = [];
  #timer: NodeJS.Timeout | undefined;
  #soon: NodeJS.Immediate | undefined;
  #inFlight = new Set<Promise<void>>();

  readonly o: Required<AuditPublisherOptions>;

  constructor(options: AuditPublisherOptions) {
    this.o = { flushMs: 200, maxInFlight: 4, maxBuffered: 10_000, ...options };
  }

  record(call: ToolCallRecord): void {
    if (this.#buffer.length >= this.o.maxBuffered) {
      if (this.stats.dropped++ % 1000 === 0) this.o.logger.warn({ dropped: this.stats.dropped }, "audit buffer full");
      return;
    }
    this.#buffer.push({ call, at: new Date() });
    // A full batch goes once this turn's answers are written; a partial one waits at most flushMs.
    if (this.#buffer.length >= 10) this.#soon ??= setImmediate(() => this.#flush(false));
    else this.#timer ??= setTimeout(() => this.#flush(true), this.o.flushMs);
  }

  /** Sends what is buffered and waits until nothing is left or in flight (shutdown, tests). */
  async drain(): Promise<void> {
    while (this.#buffer.length || this.#inFlight.size) {
      this.#flush(true);
      await Promise.race(this.#inFlight);
    }
  }

  /**
   * Sends full batches while fewer than maxInFlight are in flight, and the last partial one too
   * when `all`; what is left goes when a batch in flight ends, or when the timer fires.
   */
  #flush(all: boolean): void {
    clearImmediate(this.#soon);
    this.#soon = undefined;
    clearTimeout(this.#timer);
    this.#timer = undefined;
    while (this.#inFlight.size < this.o.maxInFlight && (this.#buffer.length >= 10 || (all && this.#buffer.length))) {
      const batch = this.#buffer.splice(0, 10);
      const sending = this.#send(batch).finally(() => {
        this.#inFlight.delete(sending);
        if (this.#buffer.length >= 10) this.#soon ??= setImmediate(() => this.#flush(false));
      });
      this.#inFlight.add(sending);
    }
    if (this.#buffer.length) this.#timer ??= setTimeout(() => this.#flush(true), this.o.flushMs);
  }

  async #send(calls: { call: ToolCallRecord; at: Date }[]): Promise<void> {
    try {
      const batch = calls.map(({ call, at }) => toolCallEnvelope(call, at));
      this.stats.requests++;
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
      this.stats.failed += calls.length;
      this.o.logger.warn({ count: calls.length, error: (err as Error).name }, "audit events not published");
    }
  }
}
