import assert from "node:assert/strict";
import type { DomainEvent } from "@flowstate/contracts/events/catalog";
import { createAwsClients } from "@flowstate/shared/aws/clients";
import { type Consumer, createConsumer } from "@flowstate/shared/consumer/consumer";
import { sendBodies, waitFor } from "@flowstate/shared/consumer/test-events";
import { createTestQueue, type TestQueue } from "@flowstate/shared/consumer/test-queue";
import { newEventId } from "@flowstate/shared/outbox/event-id";
import { afterAll, beforeAll, describe, it } from "vitest";
import { answer, connectedTenant, type Harness, readAgreements, startHarness } from "../testing/harness.ts";
import { marketplace, offerRequest } from "../testing/offer-fixtures.ts";
import { offersConsumer } from "./handlers.ts";

const sqs = createAwsClients({ endpoint: process.env.AWS_ENDPOINT_URL }).data("sqs");
let h: Harness;
let q: TestQueue;
let consumer: Consumer;
beforeAll(async () => {
  h = await startHarness({ prefix: "offers_consumer" });
  q = await createTestQueue(sqs, { prefix: "offers", visibilityTimeout: 2 });
  consumer = createConsumer({
    sqs,
    queueUrl: q.queueUrl,
    orm: h.db.orm,
    logger: h.deps.logger,
    definition: offersConsumer,
    deps: h.deps,
    waitTimeSeconds: 1,
  }).start();
});
afterAll(async () => {
  await consumer.stop();
  await q.delete();
  await h.close();
});

const watched = async (tenantId: string) =>
  (
    await h.db.orm.em
      .fork()
      .execute<{ synced: string | null }[]>(
        `SELECT synced_at AS synced FROM "${h.db.schema}".agreement_watch WHERE tenant_id = ?`,
        [tenantId],
      )
  )[0];
const recorded = async (tenantId: string) =>
  Number(
    (
      await h.db.orm.em
        .fork()
        .execute<{ n: string }[]>(`SELECT count(*) AS n FROM "${h.db.schema}".agreement WHERE tenant_id = ?`, [
          tenantId,
        ])
    )[0]?.n,
  );

const event = <K extends "ConnectorConnected.v1" | "ConnectorDisconnected.v1" | "TenantSoftDeleted.v1">(
  type: K,
  tenantId: string,
) =>
  ({
    id: newEventId(),
    type: type.split(".")[0],
    version: 1,
    source: type === "TenantSoftDeleted.v1" ? "flowstate.identity" : "flowstate.connector",
    occurred_at: new Date().toISOString(),
    tenant_id: tenantId,
    actor: { kind: "user", sub: "usr_0123456789ab" },
    data:
      type === "TenantSoftDeleted.v1"
        ? { tenant_id: tenantId, deleted_by: "usr_0123456789ab" }
        : type === "ConnectorConnected.v1"
          ? { tenant_id: tenantId, account_id: "123456789012" }
          : { tenant_id: tenantId },
  }) as unknown as DomainEvent;

describe("offers-svc's consumer", () => {
  it("drops a tenant's sessions and cached currencies (every principal's) on connect, disconnect and soft delete, each event delivered twice (a no-op)", async () => {
    const [a, b, c] = [await connectedTenant(h), await connectedTenant(h), await connectedTenant(h)];
    for (const { t } of [a, b, c]) {
      await answer(await h.call("GET", marketplace(t.id, "seller/currencies"), { as: t.member, role: "member" }), 200);
      const mcp = { as: t.member, role: "member" as const, channel: "mcp" as const };
      await answer(await h.call("GET", marketplace(t.id, "seller/currencies"), mcp), 200);
      assert.ok(h.deps.currencies.get(t.id, "backend"));
      assert.ok(h.deps.currencies.get(t.id, "mcp-execution"));
    }
    const before = h.sellers.sessionCount();
    const events = [
      event("ConnectorDisconnected.v1", a.t.id),
      event("TenantSoftDeleted.v1", b.t.id),
      event("ConnectorConnected.v1", c.t.id),
    ];
    await sendBodies(
      sqs,
      q.queueUrl,
      [...events, ...events].map((e) => JSON.stringify(e)),
    );
    await waitFor(() => consumer.stats().processed + consumer.stats().duplicates >= 6, 20_000, "six deliveries");
    assert.equal(consumer.stats().rejected, 0);
    for (const { t } of [a, b, c]) {
      assert.equal(h.deps.currencies.get(t.id, "backend"), undefined);
      assert.equal(h.deps.currencies.get(t.id, "mcp-execution"), undefined);
    }
    // c connected again: the agreement watch reads its agreements afresh (a new backend session).
    await waitFor(async () => !!(await watched(c.t.id))?.synced, 10_000, "c's agreements read again");
    assert.equal(h.sellers.sessionCount(), before - 5);
  });

  it("stops watching the agreements of a disconnected or soft-deleted tenant, and starts afresh on a connect", async () => {
    const [a, b, c] = [await connectedTenant(h), await connectedTenant(h), await connectedTenant(h)];
    for (const { t } of [a, b, c]) {
      await answer(await readAgreements(h, t), 200);
      assert.equal(await recorded(t.id), 6);
    }
    const events = [
      event("ConnectorDisconnected.v1", a.t.id),
      event("TenantSoftDeleted.v1", b.t.id),
      event("ConnectorConnected.v1", c.t.id),
    ];
    const done = consumer.stats().processed + consumer.stats().duplicates;
    await sendBodies(
      sqs,
      q.queueUrl,
      [...events, ...events].map((e) => JSON.stringify(e)),
    );
    await waitFor(() => consumer.stats().processed + consumer.stats().duplicates >= done + 6, 20_000, "six deliveries");
    for (const { t } of [a, b]) {
      assert.equal(await watched(t.id), undefined, "no longer watched");
      assert.equal(await recorded(t.id), 0, "its recorded agreements deleted");
    }
    const searches = async (control: string) =>
      ((await (await fetch(control)).json()) as { calls: Record<string, number> }).calls["SearchAgreements"] ?? 0;
    const [sa, sb] = [await searches(a.seller.control), await searches(b.seller.control)];
    // c's watch starts afresh (another seller account may be behind the new connector): read again.
    await waitFor(async () => (await recorded(c.t.id)) === 6, 10_000, "c read again");
    await new Promise((r) => setTimeout(r, 4 * h.deps.agreementWatchIntervalMs));
    assert.equal(await searches(a.seller.control), sa, "no SearchAgreements for the disconnected tenant");
    assert.equal(await searches(b.seller.control), sb, "none for the soft-deleted one");
  });

  it("deletes every change-set row of a soft-deleted tenant (in flight or ended) and no other tenant's, delivered twice", async () => {
    const [a, b] = [await connectedTenant(h), await connectedTenant(h)];
    const rows = async (tenantId: string) =>
      Number(
        (
          await h.db.orm.em
            .fork()
            .execute<{ n: string }[]>(`SELECT count(*) AS n FROM "${h.db.schema}".offer_change WHERE tenant_id = ?`, [
              tenantId,
            ])
        )[0]?.n,
      );
    for (const { t, productId, seller } of [a, b]) {
      const ended = await answer<{ change_set_id: string }>(
        await h.call("POST", marketplace(t.id, "offers"), { as: t.admin, body: offerRequest(productId) }),
        202,
      );
      await h.waitForChange(t, ended.change_set_id);
      await fetch(`${seller.control}/timing`, {
        method: "PUT",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ changeSetStepMs: 60_000 }),
      });
      await answer(
        await h.call("POST", marketplace(t.id, "offers"), {
          as: t.admin,
          body: offerRequest(productId),
          headers: { "idempotency-key": "in-flight" },
        }),
        202,
      );
      assert.equal(await rows(t.id), 2);
    }
    const deleted = event("TenantSoftDeleted.v1", b.t.id);
    const done = consumer.stats().processed + consumer.stats().duplicates;
    await sendBodies(sqs, q.queueUrl, [JSON.stringify(deleted), JSON.stringify(deleted)]);
    await waitFor(() => consumer.stats().processed + consumer.stats().duplicates >= done + 2, 20_000, "two deliveries");
    assert.equal(await rows(b.t.id), 0, "the soft-deleted tenant's rows are gone");
    assert.equal(await rows(a.t.id), 2, "another tenant's rows stay");
  });
});
