import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { CreateQueueCommand, DeleteQueueCommand, ReceiveMessageCommand } from "@aws-sdk/client-sqs";
import { testEventCatalog } from "@flowstate/contracts/events/test-catalog";
import { afterAll, describe, it } from "vitest";
import { createAwsClients } from "../aws/clients.ts";
import { uniqueKey, waitFor } from "../consumer/test-events.ts";
import { createTestQueue } from "../consumer/test-queue.ts";
import { openTestDatabase } from "../db/test-database.ts";
import { createServiceApp } from "../http/app.ts";
import { enqueueEvent } from "../outbox/enqueue-event.ts";
import { systemActor } from "../outbox/event-actor.ts";
import { OUTBOX_BACKLOG_METRIC, OUTBOX_LAG_DIMENSION } from "../outbox/lag-metric.ts";
import { createTestBus } from "../outbox/test-bus.ts";
import { rawRequest } from "../testing/raw-http.ts";
import { type BootConfig, serviceBoot } from "./service-boot.ts";

const aws = createAwsClients({ endpoint: process.env.AWS_ENDPOINT_URL });
const sqs = aws.data("sqs");
const cleanups: (() => Promise<unknown>)[] = [];
afterAll(async () => {
  for (const c of cleanups.reverse()) await c();
});

/** A configuration as a service schema parses it, with a prefix no other test uses. */
const config = (extra: Partial<BootConfig> = {}): BootConfig => ({
  HOST: "127.0.0.1",
  PORT: 0,
  LOG_LEVEL: "silent",
  SERVICE_PREFIX: `t${randomBytes(4).toString("hex")}`,
  STAGE: "dev",
  EVENT_BUS_NAME: "unused",
  AWS_ENDPOINT_URL: process.env.AWS_ENDPOINT_URL,
  ...extra,
});

describe("serviceBoot", () => {
  it("names the logger after the service", () => {
    assert.equal(serviceBoot("partner-svc", config()).logger.bindings().service, "partner-svc");
  });

  it("builds only the AWS clients the services catalog lists for the service", () => {
    const { aws } = serviceBoot("partner-svc", config());
    assert.ok(aws.data("sqs"));
    assert.throws(() => aws.data("s3"), { name: "ResidencyViolation" });
    assert.throws(() => aws.marketplace("marketplace-catalog"), { name: "ResidencyViolation" });
    assert.throws(() => aws.partner("partner-sqs"), { name: "ResidencyViolation" });
  });

  it("hands the consumer the URL of <prefix>-<stage>-<service>, CONSUME_EVENTS unset or true", async () => {
    for (const consume of [undefined, true]) {
      const c = config({ CONSUME_EVENTS: consume });
      const { QueueUrl } = await sqs.send(new CreateQueueCommand({ QueueName: `${c.SERVICE_PREFIX}-dev-partner-svc` }));
      cleanups.push(() => sqs.send(new DeleteQueueCommand({ QueueUrl })));
      const boot = serviceBoot("partner-svc", c);
      const started = await boot.consumer(sqs, (client, queueUrl) => ({ client, queueUrl }));
      assert.deepEqual(started, { client: sqs, queueUrl: QueueUrl });
    }
  });

  it("starts no consumer and looks up no queue when CONSUME_EVENTS is false", async () => {
    // No queue exists for this prefix: a lookup would reject with QueueDoesNotExist.
    const boot = serviceBoot("partner-svc", config({ CONSUME_EVENTS: false }));
    let calls = 0;
    assert.equal(await boot.consumer(sqs, () => ++calls), undefined);
    assert.equal(calls, 0);
  });

  it("rejects when the consumer's queue does not exist, before starting anything", async () => {
    const boot = serviceBoot("partner-svc", config());
    let calls = 0;
    await assert.rejects(
      boot.consumer(sqs, () => ++calls),
      { name: "QueueDoesNotExist" },
    );
    assert.equal(calls, 0);
  });

  it("relays the outbox onto EVENT_BUS_NAME, with its gauges on the boot's registry", async () => {
    const db = await openTestDatabase({ prefix: "boot_relay" });
    const q = await createTestQueue(sqs, { prefix: "boot-relay" });
    const bus = await createTestBus(aws.data("eventbridge"), q.queueArn);
    cleanups.push(
      () => db.close(),
      () => q.delete(),
      () => bus.delete(),
    );
    const boot = serviceBoot("partner-svc", config({ EVENT_BUS_NAME: bus.busName }));
    const event = await db.orm.em
      .fork()
      .transactional(async (em) =>
        enqueueEvent(
          em,
          "PlatformProbe.v1",
          { key: uniqueKey("boot"), seq: 1 },
          { source: "flowstate.platform-test", actor: systemActor("partner-svc") },
          testEventCatalog,
        ),
      );
    const relay = boot.relay(db.orm, aws.data("eventbridge"));
    cleanups.push(() => relay.stop());
    let delivered: string | undefined;
    for (let i = 0; i < 30 && !delivered; i++) {
      const res = await sqs.send(new ReceiveMessageCommand({ QueueUrl: q.queueUrl, WaitTimeSeconds: 1 }));
      delivered = res.Messages?.map((m) => JSON.parse(m.Body!).detail.id).find((id) => id === event.id);
    }
    assert.equal(delivered, event.id);
    assert.match(await boot.metrics.render(), /^outbox_backlog /m);
  });

  it("writes the relay's outbox-lag EMF line to stdout every OUTBOX_LAG_METRIC_MS, dimension service = the service", async () => {
    const db = await openTestDatabase({ prefix: "boot_lag" });
    cleanups.push(() => db.close());
    const lines: string[] = [];
    // Captures only the EMF lines; the metric goes to stdout itself, not through the logger.
    const original = process.stdout.write;
    process.stdout.write = function (this: NodeJS.WriteStream, chunk: unknown, ...rest: unknown[]) {
      if (String(chunk).includes('"_aws"')) return lines.push(String(chunk)) > 0;
      return (original as (...a: unknown[]) => boolean).call(this, chunk, ...rest);
    } as typeof process.stdout.write;
    try {
      const boot = serviceBoot("partner-svc", config({ OUTBOX_LAG_METRIC_MS: 50 }));
      const relay = boot.relay(db.orm, aws.data("eventbridge"));
      await waitFor(() => lines.length >= 2 || undefined, 10_000, "two lag lines");
      await relay.stop();
      const quiet = serviceBoot("partner-svc", config({ OUTBOX_LAG_METRIC_MS: 0 })).relay(
        db.orm,
        aws.data("eventbridge"),
      );
      const before = lines.length;
      await new Promise((resolve) => setTimeout(resolve, 250));
      await quiet.stop();
      assert.equal(lines.length, before, "OUTBOX_LAG_METRIC_MS=0 writes none");
    } finally {
      process.stdout.write = original;
    }
    const doc = JSON.parse(lines[0]!);
    assert.equal(doc[OUTBOX_LAG_DIMENSION], "partner-svc");
    assert.equal(doc[OUTBOX_BACKLOG_METRIC], 0);
    assert.ok(lines[0]!.endsWith("\n"));
  });

  it("listens on HOST:PORT with the given headers and runs the shutdown hooks in the order given", async () => {
    const boot = serviceBoot("partner-svc", config());
    const app = createServiceApp({ name: "partner-svc", logger: boot.logger, metrics: boot.metrics });
    const ran: string[] = [];
    const running = await boot.serve(
      app,
      [
        () => ran.push("consumer"),
        async () => {
          await new Promise((resolve) => setTimeout(resolve, 20));
          ran.push("relay");
        },
        () => ran.push("orm"),
      ],
      { handleSignals: false, headers: { "x-boot-test": "1" } },
    );
    assert.match(running.url, /^http:\/\/127\.0\.0\.1:\d+$/);
    assert.equal((await fetch(`${running.url}/healthz`)).status, 200);
    // A request refused before it reaches the app carries the headers passed for that case.
    const malformed = await rawRequest(running.url, "GET * HTTP/1.1\r\nhost: boot\r\n\r\n");
    assert.equal(malformed.status, 400);
    assert.equal(malformed.headers["x-boot-test"], "1");
    await running.shutdown("test");
    assert.deepEqual(ran, ["consumer", "relay", "orm"]);
    await assert.rejects(fetch(`${running.url}/healthz`));
  });
});
