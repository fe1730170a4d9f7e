import type { EventBridgeClient } from "@aws-sdk/client-eventbridge";
import { type eventCatalog, MCP_TOOL_CALLS_PER_EVENT, McpToolCallRecord } from "@flowstate/contracts/events/catalog";
import { EventEnvelope } from "@flowstate/contracts/events/envelope";
import type { CallerIdentity } from "@flowstate/edge-gateway/pipeline";
import type { Logger } from "@flowstate/shared/log/logger";
import { newEventId } from "@flowstate/shared/outbox/event-id";
import { entrySize, putEntries, type SizedEntry } from "@flowstate/shared/outbox/publish-batch";
import type { z } from "zod";

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

/**
 * The calls the publisher sends at once: ten full events, EventBridge's entries per PutEvents.
 * Fewer may go in one request: `putEntries` also keeps a request under EventBridge's 256 KiB, which
 * ten events of 50 calls with every field at its longest would pass (audit.test.ts).
 */
const FULL_REQUEST = MCP_TOOL_CALLS_PER_EVENT * 10;
const SOURCE = "flowstate.mcp-gateway";
const DETAIL_TYPE = "McpToolCallsRecorded";

/**
 * The audit record of one tool call made at `at`, as a batch carries it: its own event id (the
 * audit row's key), the caller, the request id and the outcome; never the arguments. Validated
 * against the catalog's strict schema: throws for a record it refuses.
 */
export function toolCallOf(call: ToolCallRecord, at = new Date()): McpToolCallRecord {
  return McpToolCallRecord.parse({
    id: newEventId(),
    occurred_at: at.toISOString(),
    actor:
      call.identity.kind === "api_key"
        ? { kind: "api_key", key_id: call.identity.key_id, sub: call.identity.sub }
        : { kind: "user", sub: call.identity.sub },
    request_id: call.requestId,
    tool: call.tool,
    ...(call.tenantId ? { tenant_id: call.tenantId } : {}),
    outcome: call.outcome,
    ...(call.code ? { code: call.code } : {}),
    duration_ms: Math.round(call.durationMs),
  });
}

/**
 * The envelope of one batch (1 to MCP_TOOL_CALLS_PER_EVENT calls, each validated by `toolCallOf`,
 * so the batch is not parsed again): the system actor `mcp-gateway`, and no tenant, subject or request id
 * of its own, since a batch spans tenants and people.
 */
export function toolCallsEnvelope(calls: McpToolCallRecord[], at = new Date()): EventEnvelope {
  if (calls.length < 1 || calls.length > MCP_TOOL_CALLS_PER_EVENT)
    throw new RangeError(`a batch holds 1 to ${MCP_TOOL_CALLS_PER_EVENT} calls`);
  return EventEnvelope.parse({
    id: newEventId(),
    type: DETAIL_TYPE,
    version: 1,
    source: SOURCE,
    occurred_at: at.toISOString(),
    actor: { kind: "system", service: "mcp-gateway" },
    data: { calls } satisfies z.input<(typeof eventCatalog)["McpToolCallsRecorded.v1"]>,
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
 * Publishes the tool calls' audit records to the domain bus without a database (the way
 * partner-inbound publishes), best effort: up to MCP_TOOL_CALLS_PER_EVENT calls per
 * `McpToolCallsRecorded` event and up to ten events per PutEvents request (ADR 0018; sent through
 * the relay's `putEntries`, which also keeps a request under 256 KiB), so a PutEvents serves
 * hundreds of calls; a request of ten one-call entries cost the AWS SDK about a millisecond of CPU
 * (session 20, services/mcp-gateway/README.md), a quarter of the door's CPU at one event per call.
 * A tool call never waits for its audit record, nor pays for building it: `record` keeps the
 * call's facts and time, and the records are built and validated when their request is sent, after
 * the answer went out. A full request's worth of calls goes at once; fewer wait at most `flushMs`.
 * A record the schema refuses, an entry EventBridge refuses and the calls of a request that throws
 * are counted in `failed` (exported as `mcp_audit_publish_failures_total`) and logged without
 * content. Why not the outbox: mcp-gateway owns no database, and a tool call's effects are already
 * recorded by the owning service's own outbox events; this is the who-called-what trail. At most
 * `maxInFlight` PutEvents at once, and at most `maxBuffered` calls waiting: past that they are
 * dropped and counted. `drain` (SIGTERM) sends every buffered call before the process ends.
 */
export class AuditPublisher implements AuditSink {
  /** Counted in calls, except `requests`: the PutEvents requests made. */
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
    // A full request goes once this turn's answers are written; a partial one waits at most flushMs.
    if (this.#buffer.length >= FULL_REQUEST) this.#soon ??= setImmediate(() => this.#flush(false));
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
   * Sends full requests' worth of calls while fewer than maxInFlight are in flight, and the last
   * partial one too when `all`; what is left goes when a request in flight ends, or at the timer.
   */
  #flush(all: boolean): void {
    clearImmediate(this.#soon);
    this.#soon = undefined;
    clearTimeout(this.#timer);
    this.#timer = undefined;
    while (
      this.#inFlight.size < this.o.maxInFlight &&
      (this.#buffer.length >= FULL_REQUEST || (all && this.#buffer.length))
    ) {
      const sending = this.#send(this.#buffer.splice(0, FULL_REQUEST)).finally(() => {
        this.#inFlight.delete(sending);
        if (this.#buffer.length >= FULL_REQUEST) this.#soon ??= setImmediate(() => this.#flush(false));
      });
      this.#inFlight.add(sending);
    }
    if (this.#buffer.length) this.#timer ??= setTimeout(() => this.#flush(true), this.o.flushMs);
  }

  /** Builds the calls' events and sends them in as few PutEvents requests as EventBridge's limits allow. */
  async #send(buffered: { call: ToolCallRecord; at: Date }[]): Promise<void> {
    const records: McpToolCallRecord[] = [];
    for (const { call, at } of buffered) {
      try {
        records.push(toolCallOf(call, at));
      } catch {
        this.stats.failed++;
      }
    }
    if (records.length < buffered.length)
      this.o.logger.warn({ count: buffered.length - records.length }, "audit records refused by their schema");
    const entries: SizedEntry<number>[] = [];
    for (let i = 0; i < records.length; i += MCP_TOOL_CALLS_PER_EVENT) {
      const calls = records.slice(i, i + MCP_TOOL_CALLS_PER_EVENT);
      const entry = {
        EventBusName: this.o.busName,
        Source: SOURCE,
        DetailType: DETAIL_TYPE,
        Detail: JSON.stringify(toolCallsEnvelope(calls)),
      };
      entries.push({ item: calls.length, entry, size: entrySize(entry) });
    }
    const put = await putEntries(this.o.eventBridge, entries);
    // Each item is the number of calls its event carries.
    const refused = put.refused.reduce((n, r) => n + r.item, 0);
    this.stats.requests += put.requests;
    this.stats.published += put.accepted.reduce((n, calls) => n + calls, 0);
    this.stats.failed += refused;
    if (refused)
      this.o.logger.warn(
        { count: refused, errors: [...new Set(put.refused.map((r) => r.error))] },
        "audit events not published",
      );
  }
}
