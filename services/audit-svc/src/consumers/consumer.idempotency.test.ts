import assert from "node:assert/strict";
import { type DomainEvent, eventCatalog } from "@flowstate/contracts/events/catalog";
import { type Consumer, createConsumer } from "@flowstate/shared/consumer/consumer";
import { sendBodies, waitFor } from "@flowstate/shared/consumer/test-events";
import { createTestQueue, type TestQueue } from "@flowstate/shared/consumer/test-queue";
import { newEventId } from "@flowstate/shared/outbox/event-id";
import { afterAll, beforeAll, describe, test } from "vitest";
import { domainEvent, newSub, newTenantId } from "../testing/events.ts";
import { type AuditHarness, startAuditHarness } from "../testing/harness.ts";
import { auditConsumer } from "./consumer.ts";

let h: AuditHarness;
let q: TestQueue;
let consumer: Consumer;
beforeAll(async () => {
  h = await startAuditHarness({ prefix: "consumer" });
  q = await createTestQueue(h.aws.data("sqs"), { prefix: "audit", visibilityTimeout: 5 });
  consumer = createConsumer({
    sqs: h.aws.data("sqs"),
    queueUrl: q.queueUrl,
    orm: h.orm,
    logger: h.logger,
    definition: auditConsumer,
    deps: { schema: h.schema, logger: h.logger },
    waitTimeSeconds: 1,
  }).start();
});
afterAll(async () => {
  await consumer?.stop();
  await q?.delete();
  await h?.close();
});

const rowsOf = (ids: string[]) =>
  h.asOwner<Record<string, unknown>[]>("SELECT * FROM audit_event WHERE event_id IN (?) ORDER BY id", [ids]);
const allRowCount = async () =>
  Number((await h.asOwner<{ n: string }[]>("SELECT count(*) AS n FROM audit_event"))[0]!.n);

describe("the audit consumer", () => {
  test("declares a handler for every catalog entry, on one queue for every event", () => {
    const definition = auditConsumer;
    assert.equal(definition.events, "all");
    assert.equal(definition.idempotency, "handler");
    assert.deepEqual(Object.keys(definition.handlers).sort(), Object.keys(eventCatalog).sort());
  });

  test("writes one row per event with the envelope's actor and subject, each delivered twice (in a row and at once)", async () => {
    const admin = newSub();
    const member = newSub();
    const tenant = newTenantId();
    const events: DomainEvent[] = [
      domainEvent(
        "MembershipAdded.v1",
        { tenant_id: tenant, sub: member, role: "admin" },
        { actor: { kind: "user", sub: admin }, subject: member, tenant_id: tenant, request_id: "req_0123456789ab" },
      ),
      domainEvent(
        "ApiKeyCreated.v1",
        { tenant_id: tenant, key_id: "key_0123456789abcdefgh", scope: "read" },
        { actor: { kind: "api_key", sub: admin, key_id: "key_abcdefghij0123456789" }, tenant_id: tenant },
      ),
      domainEvent(
        "TenantRenamed.v1",
        { tenant_id: tenant },
        { actor: { kind: "user", sub: admin }, tenant_id: tenant },
      ),
      domainEvent(
        "SignUpAttemptedForExistingAccount.v1",
        { sub: member },
        { actor: { kind: "anonymous" }, subject: member },
      ),
    ];
    const bodies = events.map((e) => JSON.stringify(e));
    // Twice in one batch (concurrently in one receive), then once more after they are recorded.
    await sendBodies(h.aws.data("sqs"), q.queueUrl, [...bodies, ...bodies]);
    const ids = events.map((e) => e.id);
    await waitFor(async () => (await rowsOf(ids)).length === events.length, 30_000, "the audit rows");
    await sendBodies(h.aws.data("sqs"), q.queueUrl, bodies);
    await waitFor(() => consumer.stats().duplicates >= events.length * 2, 30_000, "the duplicates");
    const rows = await rowsOf(ids);
    assert.equal(rows.length, events.length);
    const byEvent = new Map(rows.map((r) => [r.event_id, r]));
    const [added, key, renamed, attempted] = ids.map((id) => byEvent.get(id));
    assert.deepEqual(
      { kind: added!.actor_kind, actor: added!.actor_sub, target: added!.target_sub, tenant: added!.tenant_id },
      { kind: "user", actor: admin, target: member, tenant },
    );
    assert.equal(added!.request_id, "req_0123456789ab");
    assert.deepEqual(added!.summary, { role: "admin" });
    assert.equal(added!.event_type, "MembershipAdded");
    assert.equal(added!.event_version, 1);
    assert.equal(added!.source, "flowstate.identity");
    assert.deepEqual(
      { kind: key!.actor_kind, sub: key!.actor_sub, key: key!.actor_key_id, summary: key!.summary },
      {
        kind: "api_key",
        sub: admin,
        key: "key_abcdefghij0123456789",
        summary: { key_id: "key_0123456789abcdefgh", scope: "read" },
      },
    );
    assert.equal(renamed!.summary, null, "an event without an allow-list entry stores no summary");
    assert.equal(attempted!.actor_kind, "anonymous");
    assert.equal(attempted!.actor_sub, null);
    assert.equal(attempted!.target_sub, member);
  });

  test("records a batch of MCP tool calls as one McpToolCalled row per call, and nothing on redelivery", async () => {
    const admin = newSub();
    const person = newSub();
    const tenant = newTenantId();
    const keyActor = { kind: "api_key", key_id: "key_abcdefghij0123456789", sub: admin } as const;
    const calls = [
      {
        id: newEventId(),
        occurred_at: "2026-11-27T10:00:00.000Z",
        actor: keyActor,
        request_id: "req_0123456789abcdef",
        tool: "list_marketplace_products",
        tenant_id: tenant,
        outcome: "error",
        code: "CONNECTOR_NOT_CONNECTED",
        duration_ms: 12,
      },
      {
        id: newEventId(),
        occurred_at: "2026-11-27T10:00:00.100Z",
        actor: { kind: "user", sub: person },
        request_id: "req_fedcba9876543210",
        tool: "export_my_data",
        outcome: "ok",
        duration_ms: 40,
      },
      {
        id: newEventId(),
        occurred_at: "2026-11-27T10:00:00.200Z",
        actor: { kind: "user", sub: person },
        request_id: "req_00000000000000aa",
        tool: "create_private_offer",
        tenant_id: tenant,
        outcome: "denied",
        code: "INSUFFICIENT_SCOPE",
        duration_ms: 0,
      },
    ] as const;
    const batch = {
      ...domainEvent(
        "McpToolCallsRecorded.v1",
        { calls: [...calls] },
        { actor: { kind: "system", service: "mcp-gateway" } },
      ),
      source: "flowstate.mcp-gateway",
    };
    // The first call's facts as an older gateway published them: one McpToolCalled per call.
    const { id: _, occurred_at, actor, request_id, ...first } = calls[0];
    const single = {
      ...domainEvent(
        "McpToolCalled.v1",
        { ...first, sub: admin },
        { actor, subject: admin, tenant_id: tenant, request_id, occurred_at },
      ),
      source: "flowstate.mcp-gateway",
    };
    const duplicatesBefore = consumer.stats().duplicates;
    const body = JSON.stringify(batch);
    await sendBodies(h.aws.data("sqs"), q.queueUrl, [body, body, JSON.stringify(single)]);
    const ids = calls.map((c) => c.id);
    await waitFor(async () => (await rowsOf([...ids, single.id])).length === 4, 30_000, "the tool calls' rows");
    await sendBodies(h.aws.data("sqs"), q.queueUrl, [body]);
    await waitFor(() => consumer.stats().duplicates >= duplicatesBefore + 2, 30_000, "the duplicates");
    assert.deepEqual(await rowsOf([batch.id]), [], "the batch itself is no row");

    const rows = await rowsOf([...ids, single.id]);
    assert.equal(rows.length, 4);
    const byEvent = new Map(rows.map((r) => [r.event_id, r]));
    const columns = (r: Record<string, unknown> | undefined) => ({
      type: r!.event_type,
      version: r!.event_version,
      source: r!.source,
      at: new Date(r!.occurred_at as string).toISOString(),
      tenant: r!.tenant_id,
      kind: r!.actor_kind,
      actor: r!.actor_sub,
      key: r!.actor_key_id,
      target: r!.target_sub,
      request: r!.request_id,
      summary: r!.summary,
    });
    type Columns = ReturnType<typeof columns>;
    const [keyCall, userCall, denied] = ids.map((id) => columns(byEvent.get(id))) as [Columns, Columns, Columns];
    assert.deepEqual(keyCall, columns(byEvent.get(single.id)), "a batched call's row is the single event's row");
    assert.deepEqual(keyCall, {
      type: "McpToolCalled",
      version: 1,
      source: "flowstate.mcp-gateway",
      at: "2026-11-27T10:00:00.000Z",
      tenant,
      kind: "api_key",
      actor: admin,
      key: "key_abcdefghij0123456789",
      target: admin,
      request: "req_0123456789abcdef",
      summary: {
        tool: "list_marketplace_products",
        outcome: "error",
        code: "CONNECTOR_NOT_CONNECTED",
        duration_ms: 12,
      },
    });
    assert.deepEqual(
      [userCall.kind, userCall.actor, userCall.key, userCall.target, userCall.tenant, userCall.summary],
      ["user", person, null, person, null, { tool: "export_my_data", outcome: "ok", duration_ms: 40 }],
    );
    assert.deepEqual(
      [denied.tenant, denied.summary],
      [tenant, { tool: "create_private_offer", outcome: "denied", code: "INSUFFICIENT_SCOPE", duration_ms: 0 }],
    );
  });

  test("writes one database row per event: no processed-event record beside the audit row", async () => {
    const processed = await h.asOwner<{ n: string }[]>("SELECT count(*) AS n FROM processed_event");
    assert.equal(Number(processed[0]!.n), 0);
    assert.ok((await allRowCount()) > 0);
  });

  test("never writes the legacy shape", async () => {
    const legacy = await h.asOwner<{ n: string }[]>("SELECT count(*) AS n FROM audit_event_legacy");
    assert.equal(Number(legacy[0]!.n), 0);
  });
});
