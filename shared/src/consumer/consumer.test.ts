import assert from "node:assert/strict";
import { GetQueueAttributesCommand, ReceiveMessageCommand } from "@aws-sdk/client-sqs";
import { type ProbeEvent, type TestEventCatalog, testEventCatalog } from "@flowstate/contracts/events/test-catalog";
import type { EntityManager } from "@mikro-orm/postgresql";
import { afterAll, beforeAll, describe, it } from "vitest";
import { createAwsClients } from "../aws/clients.ts";
import { openTestDatabase, type TestDatabase } from "../db/test-database.ts";
import { MetricsRegistry } from "../http/metrics.ts";
import { captureLogs } from "../log/capture.ts";
import { createLogger } from "../log/logger.ts";
import { pruneProcessed } from "./apply-event.ts";
import { type Consumer, type ConsumerOptions, createConsumer } from "./consumer.ts";
import { DEAD_LETTER_ATTRIBUTES } from "./dead-letter.ts";
import { defineConsumer, type HandlersFor } from "./define-consumer.ts";
import { probeEvent, sendBodies, uniqueKey, waitFor } from "./test-events.ts";
import { createTestQueue, type TestQueue } from "./test-queue.ts";

const sqs = createAwsClients({ endpoint: process.env.AWS_ENDPOINT_URL }).data("sqs");
/** A real logger whose lines the test can read. */
function captured() {
  const capture = captureLogs();
  return { capture, logger: createLogger({ service: "consumer-test", destination: capture.stream, level: "debug" }) };
}

const effectTable = {
  name: "0001_probe_effect",
  up: "CREATE TABLE probe_effect (key text NOT NULL, seq int NOT NULL)",
};

let db: TestDatabase;
const consumers: Consumer[] = [];
const queues: TestQueue[] = [];
beforeAll(async () => {
  db = await openTestDatabase({ prefix: "consumer", migrations: [effectTable] });
});
afterAll(async () => {
  await Promise.all(consumers.map((c) => c.stop({ deadlineMs: 100 })));
  await Promise.all(queues.map((q) => q.delete()));
  await db.close();
});

async function queue(maxReceiveCount: number, visibilityTimeout: number) {
  const q = await createTestQueue(sqs, { prefix: "consumer", maxReceiveCount, visibilityTimeout });
  queues.push(q);
  return q;
}

function consumer(
  q: TestQueue,
  handlers: HandlersFor<TestEventCatalog, "PlatformProbe", EntityManager>,
  extra: Partial<ConsumerOptions> = {},
) {
  const definition = defineConsumer()({
    service: "consumer-test",
    catalog: testEventCatalog,
    events: ["PlatformProbe"],
    handlers,
  });
  const c = createConsumer({
    sqs,
    queueUrl: q.queueUrl,
    orm: db.orm,
    logger: captured().logger,
    definition,
    waitTimeSeconds: 1,
    visibilityTimeoutSeconds: 1,
    ...extra,
  });
  consumers.push(c);
  return c.start();
}

async function insertEffect(e: ProbeEvent, em: EntityManager): Promise<void> {
  await em.execute(`INSERT INTO "${db.schema}".probe_effect (key, seq) VALUES (?, ?)`, [e.data.key, e.data.seq]);
}

async function effects(key: string): Promise<number[]> {
  const rows = await db.orm.em
    .fork()
    .execute<{ seq: number }[]>(`SELECT seq FROM "${db.schema}".probe_effect WHERE key = ? ORDER BY seq`, [key]);
  return rows.map((r) => r.seq);
}

/** Receives (and leaves in flight) what arrives on `url` until `expected` bodies or `ms` elapse. */
async function drain(url: string, expected: number, ms = 5000): Promise<string[]> {
  const bodies: string[] = [];
  const until = Date.now() + ms;
  while (Date.now() < until && bodies.length < expected) {
    const res = await sqs.send(
      new ReceiveMessageCommand({ QueueUrl: url, MaxNumberOfMessages: 10, WaitTimeSeconds: 1 }),
    );
    bodies.push(...(res.Messages ?? []).map((m) => m.Body as string));
  }
  return bodies;
}

/** Receives (and leaves in flight) DLQ messages with the reason and source queue the mover attached. */
async function dlqMessages(url: string, expected: number, ms: number) {
  const found: { body: string; reason?: string; queue?: string }[] = [];
  const until = Date.now() + ms;
  while (Date.now() < until && found.length < expected) {
    const res = await sqs.send(
      new ReceiveMessageCommand({
        QueueUrl: url,
        MaxNumberOfMessages: 10,
        WaitTimeSeconds: 1,
        MessageAttributeNames: ["All"],
      }),
    );
    for (const m of res.Messages ?? [])
      found.push({
        body: m.Body as string,
        reason: m.MessageAttributes?.[DEAD_LETTER_ATTRIBUTES.reason]?.StringValue,
        queue: m.MessageAttributes?.[DEAD_LETTER_ATTRIBUTES.queue]?.StringValue,
      });
  }
  return found;
}

/** The body EventBridge puts on the queue: its own event, with our envelope as `detail`. */
const asEventBridge = (e: ProbeEvent) =>
  JSON.stringify({ version: "0", id: crypto.randomUUID(), "detail-type": e.type, source: e.source, detail: e });

describe.concurrent("createConsumer", () => {
  it("applies each event once when every event is delivered twice, in either body shape", async () => {
    const q = await queue(3, 2);
    const key = uniqueKey("dup");
    const events = Array.from({ length: 5 }, (_, i) => probeEvent(key, i));
    await sendBodies(sqs, q.queueUrl, [...events.map((e) => JSON.stringify(e)), ...events.map(asEventBridge)]);
    const c = consumer(q, { "PlatformProbe.v1": insertEffect });
    await waitFor(() => c.stats().deleted === 10, 30_000, "both copies deleted");
    assert.deepEqual(await effects(key), [0, 1, 2, 3, 4]);
    assert.equal(c.stats().processed, 5);
    assert.equal(c.stats().duplicates, 5);
  });

  it("ends as one processing run when the consumer dies between its commit and the SQS delete, for each of 100 events (§7 check 18)", async () => {
    // Receives counted by SQS include the dying consumer's own redeliveries: a high maxReceiveCount
    // keeps them on the queue rather than in the DLQ, which is not what this test is about.
    const q = await queue(100, 2);
    const key = uniqueKey("killed");
    const events = Array.from({ length: 100 }, (_, i) => probeEvent(key, i));
    await sendBodies(
      sqs,
      q.queueUrl,
      events.map((e) => JSON.stringify(e)),
    );
    // Each life of the consumer dies at its first delete, after the batch's commits: its client's
    // DeleteMessageBatch never leaves, and nothing after it does either (the process is gone).
    const life = () => {
      const state = { dead: false };
      const client = createAwsClients({ endpoint: process.env.AWS_ENDPOINT_URL }).data("sqs");
      client.middlewareStack.add(
        (next, context) => async (args) => {
          if (context.commandName === "DeleteMessageBatchCommand") state.dead = true;
          if (state.dead) throw new Error("the process died after its commit, before the delete");
          return next(args);
        },
        { step: "initialize", name: "dieAtDelete" },
      );
      // Received messages stay invisible 30 s, as a dead process's would until their timeout, so the
      // next life receives others.
      const c = consumer(q, { "PlatformProbe.v1": insertEffect }, { sqs: client, visibilityTimeoutSeconds: 30 });
      return { state, consumer: c };
    };
    let lives = 0;
    while ((await effects(key)).length < 100) {
      assert.ok(++lives <= 150, `${lives} lives and ${(await effects(key)).length} effects`);
      const { state, consumer: c } = life();
      await waitFor(() => state.dead || undefined, 30_000, "the life's first delete");
      await c.stop({ deadlineMs: 100 });
    }
    assert.equal((await effects(key)).length, 100, "every effect committed once, none twice");
    // The restarted consumer gets every message again after the visibility timeout.
    const second = consumer(q, { "PlatformProbe.v1": insertEffect });
    await waitFor(() => second.stats().deleted >= 100 || undefined, 90_000, "every redelivery deleted");
    assert.deepEqual(
      await effects(key),
      events.map((_, i) => i),
      "each effect exactly once",
    );
    assert.equal(second.stats().processed, 0, "every redelivery was a duplicate");
    assert.equal(second.stats().duplicates, 100);
  });

  it("moves a poison message to the DLQ after exactly maxReceiveCount receives without holding back the messages behind it", async () => {
    const q = await queue(3, 1);
    const key = uniqueKey("poison");
    const poison = probeEvent(key, 99);
    const good = Array.from({ length: 5 }, (_, i) => probeEvent(key, i));
    let poisonCalls = 0;
    await sendBodies(
      sqs,
      q.queueUrl,
      [poison, ...good].map((e) => JSON.stringify(e)),
    );
    const c = consumer(q, {
      "PlatformProbe.v1": async (e, em) => {
        if (e.data.seq === 99) {
          poisonCalls++;
          throw new Error("cannot apply this one");
        }
        await insertEffect(e, em);
      },
    });
    await waitFor(async () => (await effects(key)).length === 5, 30_000, "the good events");
    assert.ok(poisonCalls < 3, "the good events did not wait for the poison one to be dead-lettered");
    const dead = await drain(q.dlqUrl, 1, 15_000);
    assert.equal(JSON.parse(dead[0] ?? "{}").id, poison.id);
    await new Promise((r) => setTimeout(r, 1200));
    assert.equal(poisonCalls, 3);
    assert.equal(c.stats().failed, 3);
    assert.deepEqual(await effects(key), [0, 1, 2, 3, 4]);
  });

  it("moves invalid messages and events it has no handler for to the DLQ at once, with a logged reason and a metric", async () => {
    // maxReceiveCount 5 and a 30 s visibility: redrive could not move anything within this test.
    const q = await queue(5, 30);
    const key = uniqueKey("invalid");
    const secret = uniqueKey("s3cret-value");
    const badData = { ...probeEvent(key, 1), data: { key: secret, seq: -1 } };
    const unknown = { ...probeEvent(key, 2), type: "NoSuchThing" };
    const { id: _id, ...noId } = probeEvent(key, 3);
    const { capture, logger } = captured();
    const metrics = new MetricsRegistry();
    const bodies = ["{not json", JSON.stringify(badData), JSON.stringify(unknown), JSON.stringify(noId)];
    const good = probeEvent(key, 4);
    await sendBodies(sqs, q.queueUrl, [...bodies, JSON.stringify(good)]);
    // Subscribed to nothing it can handle: a valid PlatformProbe reaches it by a routing mistake.
    const lost = createConsumer({
      sqs,
      queueUrl: q.queueUrl,
      orm: db.orm,
      logger,
      definition: defineConsumer()({ service: "consumer-test", catalog: testEventCatalog, events: [], handlers: {} }),
      waitTimeSeconds: 1,
      visibilityTimeoutSeconds: 30,
      metrics,
    });
    consumers.push(lost);
    lost.start();
    await waitFor(() => lost.stats().deadLettered === 5, 20_000, "five messages moved");
    const dead = await dlqMessages(q.dlqUrl, 5, 10_000);
    assert.deepEqual(dead.map((m) => m.body).sort(), [...bodies, JSON.stringify(good)].sort(), "bodies unchanged");
    const reasonOf = (body: string) => dead.find((m) => m.body === body)?.reason;
    assert.equal(reasonOf("{not json"), "invalid_json");
    assert.equal(reasonOf(JSON.stringify(badData)), "invalid_data");
    assert.equal(reasonOf(JSON.stringify(unknown)), "unknown_event");
    assert.equal(reasonOf(JSON.stringify(noId)), "invalid_envelope");
    assert.equal(reasonOf(JSON.stringify(good)), "no_handler");
    for (const m of dead) assert.equal(m.queue, q.queueUrl.split("/").pop());
    // Received once each and deleted: not waiting, invisible, in the queue for a redrive.
    const left = await sqs.send(
      new GetQueueAttributesCommand({
        QueueUrl: q.queueUrl,
        AttributeNames: ["ApproximateNumberOfMessages", "ApproximateNumberOfMessagesNotVisible"],
      }),
    );
    assert.equal(left.Attributes?.ApproximateNumberOfMessages, "0");
    assert.equal(left.Attributes?.ApproximateNumberOfMessagesNotVisible, "0");
    assert.equal(lost.stats().received, 5);
    assert.deepEqual(await effects(key), []);
    const moved = capture.lines.filter((l) => l.msg?.toString().startsWith("message moved to the DLQ"));
    assert.deepEqual(moved.map((l) => l.reason).sort(), [
      "invalid_data",
      "invalid_envelope",
      "invalid_json",
      "no_handler",
      "unknown_event",
    ]);
    assert.ok(!capture.text().includes(secret), "the payload never reaches the log");
    const queueName = q.queueUrl.split("/").pop();
    const text = await metrics.render();
    for (const reason of ["invalid_json", "invalid_data", "unknown_event", "invalid_envelope", "no_handler"])
      assert.ok(text.includes(`consumer_dead_lettered_total{queue="${queueName}",reason="${reason}"} 1`), reason);
  });

  it("leaves a message for redrive when the DLQ cannot be reached", async () => {
    const q = await queue(5, 1);
    const { capture, logger } = captured();
    await sendBodies(sqs, q.queueUrl, ["{not json"]);
    const c = consumer(q, { "PlatformProbe.v1": insertEffect }, { logger, dlqUrl: `${q.dlqUrl}-missing` });
    await waitFor(() => c.stats().rejected >= 2, 30_000, "the message back after its visibility timeout");
    assert.equal(c.stats().deadLettered, 0);
    assert.ok(capture.lines.some((l) => l.msg === "could not move the message to the DLQ; it stays for redrive"));
  });

  it("rolls back a handler's partial effect when it throws, so the redelivery applies it exactly once", async () => {
    const q = await queue(3, 1);
    const key = uniqueKey("half");
    let calls = 0;
    await sendBodies(sqs, q.queueUrl, [JSON.stringify(probeEvent(key, 7))]);
    const c = consumer(q, {
      "PlatformProbe.v1": async (e, em) => {
        calls++;
        await insertEffect(e, em);
        if (calls === 1) throw new Error("crash after writing");
      },
    });
    await waitFor(() => c.stats().processed === 1, 30_000, "the retry");
    assert.equal(calls, 2);
    assert.deepEqual(await effects(key), [7]);
  });

  it("keeps a slow handler's message invisible to other replicas until it finishes", async () => {
    const q = await queue(5, 1);
    const key = uniqueKey("slow");
    let calls = 0;
    const handlers: HandlersFor<TestEventCatalog, "PlatformProbe", EntityManager> = {
      "PlatformProbe.v1": async (e, em) => {
        calls++;
        await new Promise((r) => setTimeout(r, 2500));
        await insertEffect(e, em);
      },
    };
    await sendBodies(sqs, q.queueUrl, [JSON.stringify(probeEvent(key, 1))]);
    const a = consumer(q, handlers);
    const b = consumer(q, handlers);
    await waitFor(() => a.stats().deleted + b.stats().deleted === 1, 30_000, "the slow message");
    assert.equal(calls, 1);
    assert.deepEqual(await effects(key), [1]);
  });

  it("on stop, lets in-flight messages finish within the deadline", async () => {
    const q = await queue(3, 5);
    const key = uniqueKey("stop-finish");
    await sendBodies(sqs, q.queueUrl, [JSON.stringify(probeEvent(key, 1))]);
    let started = false;
    const c = consumer(q, {
      "PlatformProbe.v1": async (e, em) => {
        started = true;
        await new Promise((r) => setTimeout(r, 400));
        await insertEffect(e, em);
      },
    });
    await waitFor(() => started, 30_000, "the handler");
    await c.stop({ deadlineMs: 5000 });
    assert.equal(c.stats().deleted, 1);
    assert.deepEqual(await effects(key), [1]);
  });

  it("on stop, returns messages still in flight at the deadline to the queue at once", async () => {
    const q = await queue(5, 30);
    const key = uniqueKey("stop-return");
    await sendBodies(sqs, q.queueUrl, [JSON.stringify(probeEvent(key, 1))]);
    let release: (err: Error) => void = () => {};
    let started = false;
    const a = consumer(
      q,
      {
        "PlatformProbe.v1": () => {
          started = true;
          return new Promise((_, reject) => {
            release = reject;
          });
        },
      },
      { visibilityTimeoutSeconds: 30 },
    );
    await waitFor(() => started, 30_000, "the handler");
    const stoppedAt = Date.now();
    await a.stop({ deadlineMs: 200 });
    const b = consumer(q, { "PlatformProbe.v1": insertEffect }, { visibilityTimeoutSeconds: 30 });
    await waitFor(() => b.stats().received === 1, 5000, "the returned message");
    assert.ok(Date.now() - stoppedAt < 10_000, "redelivered well before the 30 s visibility timeout");
    release(new Error("aborted by shutdown")); // the abandoned handler gives up; its transaction rolls back
    await waitFor(() => b.stats().deleted === 1, 30_000, "the second consumer");
    assert.deepEqual(await effects(key), [1]);
  });

  it("exposes consumer_lag_seconds and dlq_depth on the metrics registry", async () => {
    const q = await queue(1, 1);
    await sendBodies(sqs, q.queueUrl, ["{not json"]);
    const metrics = new MetricsRegistry();
    const c = consumer(q, { "PlatformProbe.v1": insertEffect }, { metrics });
    await waitFor(() => c.stats().deadLettered === 1, 30_000, "the rejection");
    const queueName = q.queueUrl.split("/").pop();
    assert.match(await metrics.render(), new RegExp(`consumer_lag_seconds\\{queue="${queueName}"\\} \\d`));
    // The DLQ is found through the queue's RedrivePolicy. The depth is cached for 30 s, so each
    // look asks a new consumer's registry until the moved message is counted.
    const rendered = await waitFor(
      async () => {
        const m = new MetricsRegistry();
        const definition = defineConsumer()({
          service: "consumer-test",
          catalog: testEventCatalog,
          events: ["PlatformProbe"],
          handlers: { "PlatformProbe.v1": insertEffect },
        });
        createConsumer({ sqs, queueUrl: q.queueUrl, orm: db.orm, logger: captured().logger, definition, metrics: m });
        const text = await m.render();
        return text.includes(`dlq_depth{queue="${queueName}"} 1`) ? text : undefined;
      },
      15_000,
      "dlq_depth in /metrics",
    );
    assert.ok(rendered);
  });

  it("keeps pruning round after round while more records are due than one delete takes", async () => {
    // Its own schema: the concurrent prune test counts what one delete removes from the shared one.
    const own = await openTestDatabase({ prefix: "consumer_prune" });
    // 2500 records: three deletes of at most 1000, which used to be an hour apart.
    await own.orm.em.fork().execute(
      `INSERT INTO "${own.schema}".processed_event (event_id, event_key, processed_at)
       SELECT 'evt_prune' || g, 'PlatformProbe.v1', now() - interval '31 days' FROM generate_series(1, 2500) g`,
    );
    const c = consumer(await queue(3, 1), { "PlatformProbe.v1": insertEffect }, { orm: own.orm });
    const count = async () =>
      Number(
        (
          await own.orm.em.fork().execute<{ n: string }[]>(`SELECT count(*) AS n FROM "${own.schema}".processed_event`)
        )[0]?.n,
      );
    try {
      await waitFor(async () => (await count()) === 0, 30_000, "every expired record pruned");
    } finally {
      await c.stop({ deadlineMs: 100 });
      await own.close();
    }
  });

  it("prunes processed-event records only after the retention", async () => {
    const em = db.orm.em.fork();
    const [oldId, newId] = [probeEvent("prune", 1).id, probeEvent("prune", 2).id];
    await em.execute(
      `INSERT INTO "${db.schema}".processed_event (event_id, event_key, processed_at) VALUES (?, 'PlatformProbe.v1', now() - interval '31 days'), (?, 'PlatformProbe.v1', now())`,
      [oldId, newId],
    );
    assert.equal(await pruneProcessed(em, db.schema, 30 * 24 * 3600_000), 1);
    const left = await em.execute<{ event_id: string }[]>(
      `SELECT event_id FROM "${db.schema}".processed_event WHERE event_id IN (?, ?)`,
      [oldId, newId],
    );
    assert.deepEqual(
      left.map((r) => r.event_id),
      [newId],
    );
  });
});
