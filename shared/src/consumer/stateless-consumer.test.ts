import assert from "node:assert/strict";
import { GetQueueAttributesCommand, ReceiveMessageCommand } from "@aws-sdk/client-sqs";
import { testEventCatalog } from "@flowstate/contracts/events/test-catalog";
import { afterAll, describe, it } from "vitest";
import { createAwsClients } from "../aws/clients.ts";
import { MetricsRegistry } from "../http/metrics.ts";
import { captureLogs } from "../log/capture.ts";
import { createLogger } from "../log/logger.ts";
import { DEAD_LETTER_ATTRIBUTES } from "./dead-letter.ts";
import { defineStatelessConsumer } from "./define-consumer.ts";
import { type StatelessConsumer, startStatelessConsumer } from "./stateless-consumer.ts";
import { probeEvent, sendBodies, uniqueKey, waitFor } from "./test-events.ts";
import { createTestQueue, type TestQueue } from "./test-queue.ts";

const sqs = createAwsClients({ endpoint: process.env.AWS_ENDPOINT_URL }).data("sqs");
const running: StatelessConsumer[] = [];
const queues: TestQueue[] = [];
afterAll(async () => {
  await Promise.all(running.map((c) => c.stop()));
  await Promise.all(queues.map((q) => q.delete()));
});

describe("startStatelessConsumer", () => {
  it("applies valid events and moves invalid ones and those it has no handler for to the DLQ at once", async () => {
    // maxReceiveCount 5 and a 30 s visibility: SQS's redrive could not move anything within this test.
    const q = await createTestQueue(sqs, { prefix: "stateless", maxReceiveCount: 5, visibilityTimeout: 30 });
    queues.push(q);
    const key = uniqueKey("stateless");
    const secret = uniqueKey("s3cret-value");
    const applied: number[] = [];
    const definition = defineStatelessConsumer<number[]>()({
      service: "consumer-test",
      catalog: testEventCatalog,
      events: ["PlatformProbe"],
      handlers: { "PlatformProbe.v1": (event, seen) => void seen.push(event.data.seq) },
    });
    // The same declaration without its handler: what a consumer sees when the bus routes it an event it does not take.
    const routedWrongly = { ...definition, handlers: {} };
    const capture = captureLogs();
    const logger = createLogger({ service: "stateless-test", destination: capture.stream, level: "debug" });
    const metrics = new MetricsRegistry();
    const invalid = [
      "[1,",
      JSON.stringify({ ...probeEvent(key, 1), data: { key: secret, seq: -1 } }),
      JSON.stringify({ ...probeEvent(key, 2), type: "NoSuchThing" }),
    ];
    const valid = JSON.stringify(probeEvent(key, 7));
    await sendBodies(sqs, q.queueUrl, [...invalid, valid]);

    const wrong = startStatelessConsumer({
      sqs,
      queueUrl: q.queueUrl,
      logger,
      definition: routedWrongly,
      context: applied,
      waitTimeSeconds: 1,
      metrics,
    });
    running.push(wrong);
    await waitFor(() => wrong.stats().deadLettered === 4, 20_000, "four messages moved");
    await wrong.stop();

    const dead: { body: string; reason: string | undefined }[] = [];
    await waitFor(
      async () => {
        const res = await sqs.send(
          new ReceiveMessageCommand({
            QueueUrl: q.dlqUrl,
            MaxNumberOfMessages: 10,
            WaitTimeSeconds: 1,
            MessageAttributeNames: ["All"],
          }),
        );
        for (const m of res.Messages ?? [])
          dead.push({
            body: m.Body as string,
            reason: m.MessageAttributes?.[DEAD_LETTER_ATTRIBUTES.reason]?.StringValue,
          });
        return dead.length >= 4;
      },
      10_000,
      "the DLQ copies",
    );
    assert.deepEqual(
      dead.map((d) => [d.body, d.reason]).sort(),
      [
        [invalid[0], "invalid_json"],
        [invalid[1], "invalid_data"],
        [invalid[2], "unknown_event"],
        [valid, "no_handler"],
      ].sort(),
    );
    const left = await sqs.send(
      new GetQueueAttributesCommand({
        QueueUrl: q.queueUrl,
        AttributeNames: ["ApproximateNumberOfMessages", "ApproximateNumberOfMessagesNotVisible"],
      }),
    );
    assert.equal(left.Attributes?.ApproximateNumberOfMessages, "0");
    assert.equal(left.Attributes?.ApproximateNumberOfMessagesNotVisible, "0");
    const queueName = q.queueUrl.split("/").pop();
    const text = await metrics.render();
    for (const reason of ["invalid_json", "invalid_data", "unknown_event", "no_handler"])
      assert.ok(text.includes(`consumer_dead_lettered_total{queue="${queueName}",reason="${reason}"} 1`), reason);
    assert.equal(capture.lines.filter((l) => String(l.msg).startsWith("message moved to the DLQ")).length, 4);
    assert.ok(!capture.text().includes(secret), "the payload never reaches the log");

    // The right consumer applies a valid event and deletes it. Sent once the stopped consumer's last
    // long poll (1 s) is over on the server's side: stopping aborts the request locally, but SQS may
    // still hand that poll a message, which then stays invisible for the 30 s visibility timeout.
    await new Promise((r) => setTimeout(r, 1_500));
    await sendBodies(sqs, q.queueUrl, [valid]);
    const right = startStatelessConsumer({
      sqs,
      queueUrl: q.queueUrl,
      logger,
      definition,
      context: applied,
      waitTimeSeconds: 1,
    });
    running.push(right);
    await waitFor(() => right.stats().applied === 1, 20_000, "the valid event");
    assert.deepEqual(applied, [7]);
    assert.equal(right.stats().deadLettered, 0);
  });
});
