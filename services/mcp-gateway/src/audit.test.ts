import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import {
  CreateEventBusCommand,
  type PutEventsCommand,
  PutRuleCommand,
  PutTargetsCommand,
} from "@aws-sdk/client-eventbridge";
import { DeleteMessageBatchCommand, ReceiveMessageCommand, SetQueueAttributesCommand } from "@aws-sdk/client-sqs";
import { MCP_TOOL_CALLS_PER_EVENT } from "@flowstate/contracts/events/catalog";
import { createAwsClients } from "@flowstate/shared/aws/clients";
import { decodeMessage } from "@flowstate/shared/consumer/decode-message";
import { createTestQueue } from "@flowstate/shared/consumer/test-queue";
import { createLogger } from "@flowstate/shared/log/logger";
import { describe, it } from "vitest";
import { AuditPublisher, type ToolCallRecord, toolCallOf, toolCallsEnvelope } from "./audit.ts";

const aws = createAwsClients({ endpoint: process.env.AWS_ENDPOINT_URL });
const eventBridge = aws.data("eventbridge");
const logger = createLogger({ service: "mcp-gateway-test" });
const call = (n: number): ToolCallRecord => ({
  tool: "list_marketplace_products",
  identity: {
    kind: "api_key",
    sub: "usr_0123456789ab",
    key_id: "key_0123456789ab",
    tenant_id: "tnt_0123456789ab",
    scope: "read",
  },
  tenantId: "tnt_0123456789ab",
  outcome: n % 2 ? "ok" : "error",
  code: n % 2 ? undefined : "CONNECTOR_NOT_CONNECTED",
  durationMs: n + 0.4,
  requestId: `req_${randomUUID().replaceAll("-", "").slice(0, 16)}`,
});

/** A bus whose every McpToolCallsRecorded event lands on a queue of this test's own. */
async function busWithQueue() {
  const busName = `mcp-audit-${randomUUID().slice(0, 8)}`;
  await eventBridge.send(new CreateEventBusCommand({ Name: busName }));
  const sqs = aws.data("sqs");
  const q = await createTestQueue(sqs, { prefix: "mcp-audit" });
  const { RuleArn } = await eventBridge.send(
    new PutRuleCommand({
      Name: `${busName}-all`,
      EventBusName: busName,
      EventPattern: JSON.stringify({ source: ["flowstate.mcp-gateway"] }),
    }),
  );
  await sqs.send(
    new SetQueueAttributesCommand({
      QueueUrl: q.queueUrl,
      Attributes: {
        Policy: JSON.stringify({
          Statement: [
            {
              Effect: "Allow",
              Principal: { Service: "events.amazonaws.com" },
              Action: "sqs:SendMessage",
              Resource: q.queueArn,
              Condition: { ArnEquals: { "aws:SourceArn": RuleArn } },
            },
          ],
        }),
      },
    }),
  );
  await eventBridge.send(
    new PutTargetsCommand({ Rule: `${busName}-all`, EventBusName: busName, Targets: [{ Id: "q", Arn: q.queueArn }] }),
  );
  /** Every message until `count` arrived (or 10 s passed), decoded with the production catalog. */
  const received = async (count: number) => {
    const decoded: ReturnType<typeof decodeMessage>[] = [];
    for (const until = Date.now() + 10_000; decoded.length < count && Date.now() < until; ) {
      const { Messages = [] } = await sqs.send(
        new ReceiveMessageCommand({ QueueUrl: q.queueUrl, MaxNumberOfMessages: 10, WaitTimeSeconds: 1 }),
      );
      if (!Messages.length) continue;
      decoded.push(...Messages.map((m) => decodeMessage(m.Body)));
      await sqs.send(
        new DeleteMessageBatchCommand({
          QueueUrl: q.queueUrl,
          Entries: Messages.map((m, i) => ({ Id: String(i), ReceiptHandle: m.ReceiptHandle! })),
        }),
      );
    }
    return decoded;
  };
  return { busName, received, delete: () => q.delete() };
}

/** An EventBridge client that reports each PutEvents request's entries as EventBridge sizes them. */
function measuredClient() {
  const client = createAwsClients({ endpoint: process.env.AWS_ENDPOINT_URL }).data("eventbridge");
  const requests: { entries: number; bytes: number }[] = [];
  client.middlewareStack.add(
    (next) => async (args) => {
      const { Entries = [] } = (args.input as PutEventsCommand["input"]) ?? {};
      requests.push({
        entries: Entries.length,
        bytes: Entries.reduce(
          (n, e) => n + Buffer.byteLength(`${e.Source ?? ""}${e.DetailType ?? ""}${e.Detail ?? ""}`),
          0,
        ),
      });
      return next(args);
    },
    { step: "initialize", name: "measureEntries" },
  );
  return { client, requests };
}

describe("mcp-gateway audit records", () => {
  it("records one call with the API key as actor, its own event id and no arguments", () => {
    const [a, b] = [toolCallOf(call(2)), toolCallOf(call(2))];
    assert.notEqual(a.id, b.id);
    const { id, occurred_at, request_id, ...rest } = a;
    assert.match(id, /^evt_/);
    assert.match(request_id, /^req_/);
    assert.deepEqual(rest, {
      actor: { kind: "api_key", key_id: "key_0123456789ab", sub: "usr_0123456789ab" },
      tool: "list_marketplace_products",
      tenant_id: "tnt_0123456789ab",
      outcome: "error",
      code: "CONNECTOR_NOT_CONNECTED",
      duration_ms: 2,
    });
  });

  it("dates the call when it was made, not when it is sent", () => {
    const at = new Date("2026-11-23T12:00:00.000Z");
    assert.equal(toolCallOf(call(1), at).occurred_at, "2026-11-23T12:00:00.000Z");
  });

  it("wraps 1 to 50 calls in an McpToolCallsRecorded envelope of the system actor, without tenant or subject", () => {
    const calls = Array.from({ length: MCP_TOOL_CALLS_PER_EVENT }, (_, n) => toolCallOf(call(n)));
    const e = toolCallsEnvelope(calls);
    assert.deepEqual([e.type, e.version, e.source], ["McpToolCallsRecorded", 1, "flowstate.mcp-gateway"]);
    assert.deepEqual(e.actor, { kind: "system", service: "mcp-gateway" });
    assert.deepEqual([e.tenant_id, e.subject, e.request_id], [undefined, undefined, undefined]);
    const decoded = decodeMessage(JSON.stringify(e));
    assert.ok(decoded.ok && decoded.key === "McpToolCallsRecorded.v1", "the catalog accepts the envelope");
    assert.throws(() => toolCallsEnvelope([]), RangeError);
    assert.throws(() => toolCallsEnvelope([...calls, toolCallOf(call(0))]), RangeError);
  });

  it("builds records off the caller's path: a record the schema refuses is counted, never thrown at the tool call", async () => {
    const audit = new AuditPublisher({ eventBridge, busName: "unused", logger });
    assert.doesNotThrow(() => audit.record({ ...call(1), tool: "Not A Tool Name" }));
    await audit.drain();
    assert.deepEqual(audit.stats, { published: 0, failed: 1, dropped: 0, requests: 0 });
  });

  it("publishes every call once, up to 50 per event and ten events per PutEvents", async () => {
    const bus = await busWithQueue();
    try {
      const { client, requests } = measuredClient();
      const audit = new AuditPublisher({ eventBridge: client, busName: bus.busName, logger, flushMs: 20 });
      for (let n = 0; n < 1234; n++) audit.record(call(n));
      await audit.drain();
      assert.deepEqual(audit.stats, { published: 1234, failed: 0, dropped: 0, requests: 3 });
      assert.deepEqual(
        requests.map((r) => r.entries),
        [10, 10, 5],
      );
      const events = await bus.received(25);
      assert.equal(events.length, 25);
      const ids = new Set<string>();
      for (const d of events) {
        assert.ok(d.ok && d.event.type === "McpToolCallsRecorded", JSON.stringify(d));
        assert.ok(d.event.data.calls.length <= MCP_TOOL_CALLS_PER_EVENT);
        for (const c of d.event.data.calls) ids.add(c.id);
      }
      assert.equal(ids.size, 1234, "every call arrives once, under its own event id");
    } finally {
      await bus.delete();
    }
  });

  it("keeps each PutEvents request under EventBridge's 256 KB when every field is at its longest", async () => {
    const busName = `mcp-audit-${randomUUID().slice(0, 8)}`;
    await eventBridge.send(new CreateEventBusCommand({ Name: busName }));
    const longest = (n: number): ToolCallRecord => ({
      ...call(n),
      identity: {
        kind: "api_key",
        sub: `usr_${"a".repeat(40)}`,
        key_id: `key_${"b".repeat(40)}`,
        tenant_id: `tnt_${"c".repeat(40)}`,
        scope: "read",
      },
      tool: `a${"_b".repeat(31)}`,
      tenantId: `tnt_${"c".repeat(40)}`,
      outcome: "error",
      code: "C".repeat(64),
      durationMs: 86_400_000,
      requestId: "r".repeat(128),
    });
    const { client, requests } = measuredClient();
    const audit = new AuditPublisher({ eventBridge: client, busName, logger });
    for (let n = 0; n < 500; n++) audit.record(longest(n));
    await audit.drain();
    assert.deepEqual([audit.stats.published, audit.stats.failed], [500, 0]);
    // Ten such entries would not fit in one request: the publisher made more, each under the limit.
    assert.ok(requests.length > 1, JSON.stringify(requests));
    for (const r of requests) assert.ok(r.bytes < 256_000, JSON.stringify(requests));
    assert.equal(
      requests.reduce((n, r) => n + r.entries, 0),
      10,
    );
  });

  it("counts the calls of a request the bus refuses", async () => {
    const lost = new AuditPublisher({ eventBridge, busName: `missing-${randomUUID().slice(0, 8)}`, logger });
    for (let n = 0; n < 3; n++) lost.record(call(n));
    await lost.drain();
    assert.deepEqual(lost.stats, { published: 0, failed: 3, dropped: 0, requests: 1 });
  });

  it("keeps at most maxInFlight PutEvents requests open, however many calls arrive at once", async () => {
    const busName = `mcp-audit-${randomUUID().slice(0, 8)}`;
    await eventBridge.send(new CreateEventBusCommand({ Name: busName }));
    // A client of its own, with a step that counts the PutEvents requests open at once.
    const counted = createAwsClients({ endpoint: process.env.AWS_ENDPOINT_URL }).data("eventbridge");
    let open = 0;
    let most = 0;
    counted.middlewareStack.add(
      (next) => async (args) => {
        most = Math.max(most, ++open);
        try {
          return await next(args);
        } finally {
          open--;
        }
      },
      { step: "initialize", name: "countOpen" },
    );
    const audit = new AuditPublisher({ eventBridge: counted, busName, logger, maxInFlight: 2 });
    for (let n = 0; n < 2000; n++) audit.record(call(n));
    await audit.drain();
    assert.deepEqual(audit.stats, { published: 2000, failed: 0, dropped: 0, requests: 4 });
    assert.equal(most, 2);
  });

  it("drops and counts the calls past maxBuffered instead of growing without bound", async () => {
    const audit = new AuditPublisher({
      eventBridge,
      busName: `missing-${randomUUID().slice(0, 8)}`,
      logger,
      maxBuffered: 25,
      maxInFlight: 1,
    });
    for (let n = 0; n < 40; n++) audit.record(call(n));
    await audit.drain();
    assert.deepEqual(audit.stats, { published: 0, failed: 25, dropped: 15, requests: 1 });
  });
});
