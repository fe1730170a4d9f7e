import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { CreateEventBusCommand } from "@aws-sdk/client-eventbridge";
import { createAwsClients } from "@flowstate/shared/aws/clients";
import { createLogger } from "@flowstate/shared/log/logger";
import { describe, it } from "vitest";
import { AuditPublisher, type ToolCallRecord, toolCallEnvelope } from "./audit.ts";

const eventBridge = createAwsClients({ endpoint: process.env.AWS_ENDPOINT_URL }).data("eventbridge");
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

describe("mcp-gateway audit events", () => {
  it("builds an McpToolCalled envelope with the API key as actor and no arguments", () => {
    const e = toolCallEnvelope(call(2));
    assert.equal(e.type, "McpToolCalled");
    assert.deepEqual(e.actor, { kind: "api_key", key_id: "key_0123456789ab", sub: "usr_0123456789ab" });
    assert.deepEqual(e.data, {
      tool: "list_marketplace_products",
      tenant_id: "tnt_0123456789ab",
      sub: "usr_0123456789ab",
      outcome: "error",
      code: "CONNECTOR_NOT_CONNECTED",
      duration_ms: 2,
    });
  });

  it("dates the event at the call, not at the send", () => {
    const at = new Date("2026-11-23T12:00:00.000Z");
    assert.equal(toolCallEnvelope(call(1), at).occurred_at, "2026-11-23T12:00:00.000Z");
  });

  it("builds envelopes off the caller's path: a record the schema refuses is counted, never thrown at the tool call", async () => {
    const audit = new AuditPublisher({ eventBridge, busName: "unused", logger });
    assert.doesNotThrow(() => audit.record({ ...call(1), tool: "Not A Tool Name" }));
    await audit.drain();
    assert.deepEqual(audit.stats, { published: 0, failed: 1, dropped: 0, requests: 0 });
  });

  it("publishes in batches of at most 10 without holding the caller, and counts what the bus refuses", async () => {
    const busName = `mcp-audit-${randomUUID().slice(0, 8)}`;
    await eventBridge.send(new CreateEventBusCommand({ Name: busName }));
    const audit = new AuditPublisher({ eventBridge, busName, logger, flushMs: 20 });
    for (let n = 0; n < 23; n++) audit.record(call(n));
    await audit.drain();
    assert.deepEqual(audit.stats, { published: 23, failed: 0, dropped: 0, requests: 3 });

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
    for (let n = 0; n < 200; n++) audit.record(call(n));
    await audit.drain();
    assert.deepEqual(audit.stats, { published: 200, failed: 0, dropped: 0, requests: 20 });
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
    assert.deepEqual(audit.stats, { published: 0, failed: 25, dropped: 15, requests: 3 });
  });
});
