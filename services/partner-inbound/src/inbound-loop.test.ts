import assert from "node:assert/strict";
import { GetQueueAttributesCommand, ReceiveMessageCommand, SendMessageBatchCommand } from "@aws-sdk/client-sqs";
import { createAwsClients } from "@flowstate/shared/aws/clients";
import { waitFor } from "@flowstate/shared/consumer/test-events";
import { createTestQueue, type TestQueue } from "@flowstate/shared/consumer/test-queue";
import { createLogger } from "@flowstate/shared/log/logger";
import { createTestBus, type TestBus } from "@flowstate/shared/outbox/test-bus";
import { afterAll, beforeAll, describe, it } from "vitest";
import { fetchConnectedAccounts } from "./connector-client.ts";
import { type InboundLoop, startInboundLoop } from "./inbound-loop.ts";
import { keepMapLoaded } from "./map-refresh.ts";
import { TenantMap } from "./tenant-map.ts";
import { opportunityDetail, partnerEvent } from "./testdata/partner-events.ts";

const aws = createAwsClients({ endpoint: process.env.AWS_ENDPOINT_URL });
const logger = createLogger({ service: "partner-inbound" });
const partnerSqs = aws.partner("partner-sqs");

/**
 * The pump against moto: the us-east-1 partner queue (with its DLQ) in, a domain bus of the test's
 * own out, routed to a queue the test reads. Issue 24: an unknown account's event stays on the queue
 * (then the DLQ), a disconnected account's is dropped, and nothing is pumped before the map is loaded.
 */
describe("the partner pump and its account map", () => {
  let partner: TestQueue;
  let published: TestQueue;
  let bus: TestBus;
  let loop: InboundLoop | undefined;
  beforeAll(async () => {
    partner = await createTestQueue(partnerSqs, { prefix: "pin", visibilityTimeout: 1, maxReceiveCount: 3 });
    published = await createTestQueue(aws.data("sqs"), { prefix: "pin-out" });
    bus = await createTestBus(aws.data("eventbridge"), published.queueArn, { source: ["flowstate.partner-inbound"] });
  });
  afterAll(async () => {
    await loop?.stop();
    await bus?.delete();
    await partner?.delete();
    await published?.delete();
  });

  const depth = async (url: string) => {
    const { Attributes = {} } = await partnerSqs.send(
      new GetQueueAttributesCommand({
        QueueUrl: url,
        AttributeNames: ["ApproximateNumberOfMessages", "ApproximateNumberOfMessagesNotVisible"],
      }),
    );
    return Number(Attributes.ApproximateNumberOfMessages) + Number(Attributes.ApproximateNumberOfMessagesNotVisible);
  };

  it("publishes a connected tenant's event, drops a disconnected account's, and leaves an unknown account's for the DLQ", async () => {
    const map = new TenantMap(4);
    map.connect("tnt_connected000000000000", "111111111111");
    map.connect("tnt_gone00000000000000000", "222222222222");
    map.disconnect("tnt_gone00000000000000000");
    const events = {
      connected: partnerEvent("Opportunity Created", opportunityDetail("O1"), { account: "111111111111" }),
      gone: partnerEvent("Opportunity Created", opportunityDetail("O2"), { account: "222222222222" }),
      unknown: partnerEvent("Opportunity Created", opportunityDetail("O3"), { account: "333333333333" }),
    };
    await partnerSqs.send(
      new SendMessageBatchCommand({
        QueueUrl: partner.queueUrl,
        Entries: Object.entries(events).map(([id, e]) => ({ Id: id, MessageBody: JSON.stringify(e) })),
      }),
    );
    loop = startInboundLoop({
      sqs: partnerSqs,
      queueUrl: partner.queueUrl,
      eventBridge: aws.data("eventbridge"),
      busName: bus.busName,
      map: () => map,
      logger,
      waitTimeSeconds: 1,
    });
    // The unknown account's event is received until maxReceiveCount (3), then moto moves it to the DLQ.
    await waitFor(
      async () => (await depth(partner.dlqUrl)) === 1 || undefined,
      60_000,
      "the unknown event in the DLQ",
      250,
    );
    const stats = loop.stats();
    await loop.stop();
    loop = undefined;
    assert.equal(stats.published, 1);
    assert.equal(stats.dropped.disconnected_account, 1);
    assert.equal(stats.deferred, 3, "received three times, never deleted");
    assert.equal(await depth(partner.queueUrl), 0, "nothing else is left on the partner queue");
    const { Messages = [] } = await aws
      .data("sqs")
      .send(new ReceiveMessageCommand({ QueueUrl: published.queueUrl, WaitTimeSeconds: 2, MaxNumberOfMessages: 10 }));
    const tenants = Messages.map((m) => JSON.parse(m.Body!).detail.tenant_id);
    assert.deepEqual(tenants, ["tnt_connected000000000000"], "only the connected tenant's event is published");
  });

  it("keeps a tenant connected during a refresh's fetch, and forgets one the list no longer has", () => {
    const map = new TenantMap(
      4,
      () => {},
      () => 1_000,
    );
    map.merge([{ tenant_id: "tnt_a", account_id: "111111111111" }], map.epoch);
    const since = map.epoch; // the refresh starts its fetch here ...
    map.connect("tnt_b", "222222222222"); // ... ConnectorConnected arrives meanwhile ...
    map.merge([{ tenant_id: "tnt_a", account_id: "111111111111" }], since); // ... the list predates it
    assert.deepEqual(map.lookup("222222222222"), { tenant: "tnt_b" }, "the just-connected tenant survives the refresh");
    const later = map.epoch;
    map.merge([{ tenant_id: "tnt_b", account_id: "222222222222" }], later); // tnt_a disconnected, event missed
    assert.equal(map.lookup("111111111111"), "gone");
    assert.equal(map.lookup("999999999999"), "unknown");
    map.disconnect("tnt_b");
    assert.equal(map.lookup("222222222222"), "gone");
    map.connect("tnt_c", "222222222222");
    assert.deepEqual(map.lookup("222222222222"), { tenant: "tnt_c" }, "a reconnected account is no longer gone");
  });

  it("starts the pump only once connector-svc has answered with the map", async () => {
    const map = new TenantMap(4);
    let reachable = false;
    let started = 0;
    const refresher = keepMapLoaded({
      map,
      // connector-svc down: a real refused connection (nothing listens on port 9), then the list.
      fetch: async () =>
        reachable
          ? [{ tenant_id: "tnt_a", account_id: "111111111111" }]
          : fetchConnectedAccounts("http://127.0.0.1:9", () => "unsigned", 1_000),
      refreshMs: 60_000,
      retryMs: 100,
      logger,
      onLoaded: () => started++,
    });
    try {
      await new Promise((r) => setTimeout(r, 500));
      assert.equal(started, 0, "no pump while connector-svc does not answer");
      assert.equal(refresher.loaded(), false);
      reachable = true;
      await waitFor(() => started === 1 || undefined, 10_000, "the pump started", 50);
      assert.deepEqual(map.lookup("111111111111"), { tenant: "tnt_a" });
    } finally {
      refresher.stop();
    }
  });
});
