import assert from "node:assert/strict";
import { createAwsClients } from "@flowstate/shared/aws/clients";
import { createConsumer } from "@flowstate/shared/consumer/consumer";
import { sendBodies, waitFor } from "@flowstate/shared/consumer/test-events";
import { createTestQueue, type TestQueue } from "@flowstate/shared/consumer/test-queue";
import { newEventId } from "@flowstate/shared/outbox/event-id";
import { afterAll, beforeAll, describe, it } from "vitest";
import { type MarketplaceStack, startMarketplaceStack } from "../testing/marketplace-stack.ts";
import { connectorConsumer } from "./tenant-soft-deleted.ts";

describe("TenantSoftDeleted", () => {
  let stack: MarketplaceStack;
  let queue: TestQueue;
  let consumer: ReturnType<typeof createConsumer>;
  const sqs = createAwsClients({ endpoint: process.env.AWS_ENDPOINT_URL }).data("sqs");
  beforeAll(async () => {
    stack = await startMarketplaceStack({ prefix: "mkt_tsd" });
    queue = await createTestQueue(sqs, { prefix: "connector-tsd" });
    consumer = createConsumer({
      sqs,
      queueUrl: queue.queueUrl,
      orm: stack.connector.orm,
      logger: stack.connector.logger,
      definition: connectorConsumer,
      deps: stack.connector,
      waitTimeSeconds: 1,
    }).start();
  });
  afterAll(async () => {
    await consumer.stop();
    await queue.delete();
    await stack.close();
  });

  it("removes the connector and its external ID once, with one ConnectorDisconnected, though delivered twice", async () => {
    const t = await stack.connectedTenant();
    await stack.call("GET", `/v1/tenants/${t.tenantId}/integrations/marketplace/products`, { token: t.owner.token });
    const cachedBefore = stack.connector.sessions.stats().cached;
    const envelope = {
      id: newEventId(),
      type: "TenantSoftDeleted",
      version: 1,
      source: "flowstate.identity",
      occurred_at: new Date().toISOString(),
      tenant_id: t.tenantId,
      actor: { kind: "user", sub: t.owner.sub },
      data: { tenant_id: t.tenantId, deleted_by: t.owner.sub },
    };
    await sendBodies(sqs, queue.queueUrl, [JSON.stringify(envelope), JSON.stringify(envelope)]);
    const { orm, schema } = stack.connector;
    await waitFor(async () => (await stack.connector.rows.read(t.tenantId)) === undefined, 20_000, "removal");
    await waitFor(() => consumer.stats().duplicates + consumer.stats().processed >= 2, 20_000, "both deliveries");
    const events = await orm.em
      .fork()
      .execute<{ envelope: { data: { tenant_id: string }; actor: { kind: string } } }[]>(
        `SELECT envelope FROM "${schema}".outbox_event WHERE event_key = 'ConnectorDisconnected.v1'`,
      );
    const mine = events.filter((e) => e.envelope.data.tenant_id === t.tenantId);
    assert.equal(mine.length, 1);
    assert.deepEqual(mine[0]?.envelope.actor, { kind: "system", service: "connector-svc" });
    assert.ok(stack.connector.sessions.stats().cached < cachedBefore, "the tenant's seller sessions are dropped");
  });
});
