import assert from "node:assert/strict";
import { type DomainEvent, eventCatalog } from "@flowstate/contracts/events/catalog";
import { type Consumer, createConsumer } from "@flowstate/shared/consumer/consumer";
import { sendBodies, waitFor } from "@flowstate/shared/consumer/test-events";
import { createTestQueue, type TestQueue } from "@flowstate/shared/consumer/test-queue";
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
