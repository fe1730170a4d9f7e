import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { ReceiveMessageCommand } from "@aws-sdk/client-sqs";
import type { DomainEvent } from "@flowstate/contracts/events/catalog";
import { type ProbeEvent, testEventCatalog } from "@flowstate/contracts/events/test-catalog";
import type { EntityManager } from "@mikro-orm/postgresql";
import { afterAll, beforeAll, describe, it } from "vitest";
import { createAwsClients } from "../aws/clients.ts";
import { createConsumer } from "../consumer/consumer.ts";
import { defineConsumer } from "../consumer/define-consumer.ts";
import { uniqueKey, waitFor } from "../consumer/test-events.ts";
import { createTestQueue, type TestQueue } from "../consumer/test-queue.ts";
import { openTestDatabase, type TestDatabase } from "../db/test-database.ts";
import { MetricsRegistry } from "../http/metrics.ts";
import { captureLogs } from "../log/capture.ts";
import { createLogger } from "../log/logger.ts";
import { nodeBinary } from "../testing/node-binary.ts";
import { pruneSent } from "./claim-batch.ts";
import { enqueueEvent, outboxRow } from "./enqueue-event.ts";
import { systemActor } from "./event-actor.ts";
import { outboxInsert } from "./outbox-insert.ts";
import { type OutboxRelay, startOutboxRelay } from "./relay.ts";
import { createTestBus, type TestBus } from "./test-bus.ts";

const aws = createAwsClients({ endpoint: process.env.AWS_ENDPOINT_URL });
const sqs = aws.data("sqs");
const eventBridge = aws.data("eventbridge");
const logger = createLogger({ service: "outbox-test" });
const source = "flowstate.platform-test";
const effectTable = {
  name: "0001_probe_effect",
  up: "CREATE TABLE probe_effect (key text NOT NULL, seq int NOT NULL)",
};

const cleanups: (() => Promise<unknown>)[] = [];
afterAll(async () => {
  for (const c of cleanups.reverse()) await c();
});

/** Each test: its own schema, queue + DLQ, and bus with a rule into the queue. */
async function stack(prefix: string): Promise<{ db: TestDatabase; q: TestQueue; bus: TestBus }> {
  const db = await openTestDatabase({ prefix, migrations: [effectTable] });
  const q = await createTestQueue(sqs, { prefix, visibilityTimeout: 2 });
  const bus = await createTestBus(eventBridge, q.queueArn);
  cleanups.push(
    () => db.close(),
    () => q.delete(),
    () => bus.delete(),
  );
  return { db, q, bus };
}

function relay(options: Parameters<typeof startOutboxRelay>[0]): OutboxRelay {
  const r = startOutboxRelay(options);
  cleanups.push(() => r.stop());
  return r;
}

/**
 * Collects (without deleting) the envelopes EventBridge delivered to the queue: until `expected`
 * arrived (or 10 s), then for `graceMs` more, so an extra delivery would be seen too.
 */
async function delivered(queueUrl: string, expected: number, graceMs = 1500): Promise<DomainEvent[]> {
  const events: DomainEvent[] = [];
  let until = Date.now() + 30_000; // generous for a loaded machine: it returns once every event is in (plus the grace)
  let graceStarted = false;
  while (Date.now() < until) {
    if (events.length >= expected && !graceStarted) {
      graceStarted = true;
      until = Date.now() + graceMs;
    }
    const res = await sqs.send(
      new ReceiveMessageCommand({
        QueueUrl: queueUrl,
        MaxNumberOfMessages: 10,
        WaitTimeSeconds: 1,
        VisibilityTimeout: 60,
      }),
    );
    for (const m of res.Messages ?? []) events.push(JSON.parse(m.Body as string).detail);
  }
  return events;
}

const actor = systemActor("platform-test");
const probe = (em: EntityManager, key: string, seq: number) =>
  enqueueEvent(em, "PlatformProbe.v1", { key, seq }, { source, actor }, testEventCatalog);

describe("enqueueEvent", () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await openTestDatabase({ prefix: "enqueue" });
  });
  afterAll(() => db.close());

  it("writes a typed envelope with an evt_ id into the caller's unit of work", async () => {
    const event = await db.orm.em.fork().transactional(async (em) =>
      enqueueEvent(
        em,
        "TenantCreated.v1",
        { tenant_id: "tnt_0123456789", owner_sub: "usr_0123456789" },
        {
          source,
          tenant_id: "tnt_0123456789",
          actor: { kind: "user", sub: "usr_0123456789" },
          subject: "usr_0123456789",
          request_id: "req_0123456789abcdef",
        },
      ),
    );
    assert.match(event.id, /^evt_[0-9A-Za-z]{25}$/);
    assert.equal(event.type, "TenantCreated");
    assert.equal(event.version, 1);
    assert.deepEqual(event.actor, { kind: "user", sub: "usr_0123456789" });
    assert.equal(event.request_id, "req_0123456789abcdef");
    const [row] = await db.orm.em
      .fork()
      .execute(`SELECT event_key, envelope, sent_at FROM "${db.schema}".outbox_event WHERE id = ?`, [event.id]);
    assert.equal(row?.event_key, "TenantCreated.v1");
    assert.deepEqual(row?.envelope, JSON.parse(JSON.stringify(event)));
    assert.equal(row?.sent_at, null);
  });

  it("refuses data that does not match the catalog, naming the field but not its value", async () => {
    const em = db.orm.em.fork();
    assert.throws(
      () =>
        enqueueEvent(
          em,
          "TenantCreated.v1",
          { tenant_id: "secret-looking-value", owner_sub: "usr_0123456789" },
          { source, actor },
        ),
      (err: Error) => /tenant_id/.test(err.message) && !err.message.includes("secret-looking-value"),
    );
    assert.throws(
      () =>
        enqueueEvent(
          em,
          "PlatformProbe.v1",
          { key: "k", seq: 1 },
          { source: "not-flowstate", actor },
          testEventCatalog,
        ),
      /source/,
    );
    assert.equal(em.getUnitOfWork().getPersistStack().size, 0);
  });

  it("prunes only rows sent longer ago than the retention", async () => {
    const [oldSent, recentSent, pending] = await db.orm.em
      .fork()
      .transactional(async (em) => [1, 2, 3].map((i) => probe(em, "prune", i)));
    const em = db.orm.em.fork();
    await em.execute(`UPDATE "${db.schema}".outbox_event SET sent_at = now() - interval '8 days' WHERE id = ?`, [
      oldSent?.id,
    ]);
    await em.execute(`UPDATE "${db.schema}".outbox_event SET sent_at = now() WHERE id = ?`, [recentSent?.id]);
    assert.equal(await pruneSent(em, db.schema, 7 * 24 * 3600_000), 1);
    const left = await em.execute<{ id: string }[]>(
      `SELECT id FROM "${db.schema}".outbox_event WHERE id IN (?, ?, ?)`,
      [oldSent?.id, recentSent?.id, pending?.id],
    );
    assert.deepEqual(left.map((r) => r.id).sort(), [recentSent?.id, pending?.id].sort());
  });
});

describe.concurrent("outbox relay", () => {
  it("publishes the events of a committed change and none of a rolled-back one", async () => {
    const { db, q, bus } = await stack("relay_commit");
    const key = uniqueKey("commit");
    const committed = await db.orm.em.fork().transactional(async (em) => {
      await em.execute(`INSERT INTO "${db.schema}".probe_effect (key, seq) VALUES (?, 0)`, [key]);
      return [probe(em, key, 1), probe(em, key, 2)];
    });
    let rolledBack: ProbeEvent | undefined;
    await assert.rejects(
      db.orm.em.fork().transactional(async (em) => {
        rolledBack = probe(em, key, 3);
        await em.flush();
        throw new Error("the change fails after the event was flushed");
      }),
    );
    const r = relay({ orm: db.orm, eventBridge, busName: bus.busName, logger });
    const events = await delivered(q.queueUrl, 2);
    assert.deepEqual(events.map((e) => e.id).sort(), committed.map((e) => e.id).sort());
    assert.ok(rolledBack && !events.some((e) => e.id === rolledBack?.id));
    assert.equal(await r.backlog(), 0);
  });

  it("re-publishes after a relay is killed between PutEvents and marking sent, and the consumer applies the effect once", async () => {
    const { db, q, bus } = await stack("relay_crash");
    const key = uniqueKey("crash");
    const [event] = await db.orm.em.fork().transactional(async (em) => [probe(em, key, 1)]);
    const child = spawn(nodeBinary, [fileURLToPath(new URL("./relay-crash.fixture.ts", import.meta.url))], {
      env: { ...process.env, RELAY_SCHEMA: db.schema, RELAY_BUS: bus.busName },
      stdio: ["ignore", "inherit", "inherit"],
    });
    const signal = await new Promise((resolve) => child.once("exit", (_code, sig) => resolve(sig)));
    assert.equal(signal, "SIGKILL");
    const [row] = await db.orm.em
      .fork()
      .execute(`SELECT sent_at FROM "${db.schema}".outbox_event WHERE id = ?`, [event?.id]);
    assert.equal(row?.sent_at, null, "the killed relay never marked the row sent");

    const r = relay({ orm: db.orm, eventBridge, busName: bus.busName, logger });
    await waitFor(async () => (await r.backlog()) === 0, 30_000, "the re-publish");
    const consumer = createConsumer({
      sqs,
      queueUrl: q.queueUrl,
      orm: db.orm,
      logger,
      waitTimeSeconds: 1,
      definition: defineConsumer()({
        service: "outbox-test",
        catalog: testEventCatalog,
        events: ["PlatformProbe"],
        handlers: {
          "PlatformProbe.v1": async (e, em) => {
            await em.execute(`INSERT INTO "${db.schema}".probe_effect (key, seq) VALUES (?, ?)`, [
              e.data.key,
              e.data.seq,
            ]);
          },
        },
      }),
    }).start();
    cleanups.push(() => consumer.stop({ deadlineMs: 100 }));
    await waitFor(() => consumer.stats().deleted === 2, 30_000, "both deliveries");
    assert.deepEqual(consumer.stats(), {
      received: 2,
      processed: 1,
      duplicates: 1,
      rejected: 0,
      deadLettered: 0,
      failed: 0,
      deleted: 2,
    });
    const effects = await db.orm.em.fork().execute(`SELECT seq FROM "${db.schema}".probe_effect WHERE key = ?`, [key]);
    assert.equal(effects.length, 1);
  });

  it("shares the backlog between several relays without publishing an event twice", async () => {
    const { db, q, bus } = await stack("relay_many");
    const key = uniqueKey("many");
    const events = await db.orm.em
      .fork()
      .transactional(async (em) => Array.from({ length: 12 }, (_, i) => probe(em, key, i)));
    const relays = Array.from({ length: 3 }, () =>
      relay({ orm: db.orm, eventBridge, busName: bus.busName, logger, batchSize: 2 }),
    );
    const got = await delivered(q.queueUrl, 12);
    assert.deepEqual(got.map((e) => e.id).sort(), events.map((e) => e.id).sort());
    assert.equal(await relays[0]?.backlog(), 0);
  });

  it("is woken by the commit itself rather than waiting for its next poll", async () => {
    const db = await openTestDatabase({ prefix: "relay_notify" });
    const q = await createTestQueue(sqs, { prefix: "relay_notify" });
    const bus = await createTestBus(eventBridge, q.queueArn);
    cleanups.push(
      () => db.close(),
      () => q.delete(),
      () => bus.delete(),
    );
    const r = relay({ orm: db.orm, eventBridge, busName: bus.busName, logger, pollIntervalMs: 60_000 });
    await new Promise((resolve) => setTimeout(resolve, 300)); // the first (empty) round and LISTEN are done
    await db.orm.em.fork().transactional(async (em) => [probe(em, uniqueKey("notify"), 1)]);
    await waitFor(async () => (await r.backlog()) === 0, 20_000, "the NOTIFY wake-up (the poll is 60 s away)");
  });

  it("publishes the events a change inserted itself (outboxInsert): only those it kept, none of a rolled-back one, woken by the commit", async () => {
    const { db, q, bus } = await stack("relay_cte");
    const r = relay({ orm: db.orm, eventBridge, busName: bus.busName, logger, pollIntervalMs: 60_000 });
    await new Promise((resolve) => setTimeout(resolve, 300)); // the first (empty) round and LISTEN are done
    const key = uniqueKey("cte");
    const row = (seq: number) => ({
      ...outboxRow("PlatformProbe.v1", { key, seq }, { source, actor }, testEventCatalog),
      tag: String(seq),
    });
    const [one, two, three] = [row(1), row(2), row(3)];
    // One statement: the change (rows 1 and 3 of the effect table) and the events of what it wrote.
    const outbox = outboxInsert(db.schema, [one!, two!], { keep: "e.tag IN (SELECT seq::text FROM written)" });
    await db.orm.em.fork().transactional((em) =>
      em.execute(
        `WITH written AS (INSERT INTO "${db.schema}".probe_effect (key, seq) VALUES (?, 1), (?, 3) RETURNING seq), ${outbox.sql}
         SELECT count(*) FROM written`,
        [key, key, ...outbox.params],
      ),
    );
    await assert.rejects(
      db.orm.em.fork().transactional(async (em) => {
        const single = outboxInsert(db.schema, [three!]);
        await em.execute(`WITH ${single.sql} SELECT 1`, single.params);
        throw new Error("the change fails after its event was inserted");
      }),
    );
    const events = await delivered(q.queueUrl, 1);
    assert.deepEqual(
      events.map((e) => e.id),
      [one!.id],
    );
    assert.deepEqual(events[0], one!.envelope);
    assert.equal(await r.backlog(), 0);
  });

  it("keeps pruning round after round while more sent rows are due than one delete takes", async () => {
    const db = await openTestDatabase({ prefix: "relay_prune" });
    cleanups.push(() => db.close());
    // 2500 rows: three deletes of at most 1000, which used to be ten minutes apart.
    await db.orm.em.fork().execute(
      `INSERT INTO "${db.schema}".outbox_event (id, event_key, envelope, sent_at)
       SELECT 'evt_prune' || g, 'PlatformProbe.v1', '{}'::jsonb, now() - interval '8 days' FROM generate_series(1, 2500) g`,
    );
    relay({ orm: db.orm, eventBridge, busName: "t-no-such-bus", logger, pollIntervalMs: 100 });
    const count = async () =>
      Number(
        (await db.orm.em.fork().execute<{ n: string }[]>(`SELECT count(*) AS n FROM "${db.schema}".outbox_event`))[0]
          ?.n,
      );
    await waitFor(async () => (await count()) === 0, 20_000, "every expired row pruned");
  });

  it("marks an event over EventBridge's 256 KiB entry limit failed for good, logs it without the payload, counts it, and publishes the rest", async () => {
    const { db, q, bus } = await stack("relay_big");
    const key = uniqueKey("big");
    const secret = uniqueKey("s3cret-payload");
    // 300 KiB of data. moto 5.2 accepts such an entry (it does not enforce the limit), so only the
    // relay's own size check can keep it from being published, and only its terminal state from
    // retrying it: on AWS the same entry is refused on every attempt.
    const [big, small] = await db.orm.em
      .fork()
      .transactional(async (em) => [
        enqueueEvent(
          em,
          "PlatformProbe.v1",
          { key: `${secret}${"x".repeat(300 * 1024)}`, seq: 1 },
          { source, actor },
          testEventCatalog,
        ),
        probe(em, key, 2),
      ]);
    const capture = captureLogs();
    const log = createLogger({ service: "outbox-test", destination: capture.stream, level: "debug" });
    const metrics = new MetricsRegistry();
    const r = relay({ orm: db.orm, eventBridge, busName: bus.busName, logger: log, metrics, pollIntervalMs: 50 });
    const got = await delivered(q.queueUrl, 1);
    assert.deepEqual(
      got.map((e) => e.id),
      [small?.id],
      "the small event is published, the big one never",
    );
    const rowOf = async () =>
      (
        await db.orm.em
          .fork()
          .execute<{ failed_at: Date | null; sent_at: Date | null; attempts: number; last_error: string }[]>(
            `SELECT failed_at, sent_at, attempts, last_error FROM "${db.schema}".outbox_event WHERE id = ?`,
            [big?.id],
          )
      )[0];
    const row = await rowOf();
    assert.ok(row?.failed_at, "terminal state");
    assert.equal(row?.sent_at, null);
    assert.equal(row?.attempts, 0, "never sent, so no attempt and no backoff");
    assert.match(row?.last_error ?? "", /^EntryTooLarge: \d+ bytes, EventBridge accepts less than 262144$/);
    assert.equal(await r.backlog(), 0, "not pending any more");
    const text = await metrics.render();
    assert.match(text, /^outbox_failed 1$/m);
    assert.match(text, /^outbox_backlog 0$/m);
    // Many poll rounds later: still one line, the row untouched (it is not claimed again).
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const lines = capture.lines.filter((l) => l.event_id === big?.id);
    assert.equal(lines.length, 1);
    assert.equal(lines[0]?.level, "error");
    assert.equal(lines[0]?.event_key, "PlatformProbe.v1");
    assert.ok(Number(lines[0]?.size_bytes) > 300 * 1024);
    assert.ok(!capture.text().includes(secret), "the payload never reaches the log");
    assert.deepEqual(await rowOf(), row);
  });

  it("keeps rows pending with a growing backoff when PutEvents fails", async () => {
    const db = await openTestDatabase({ prefix: "relay_fail" });
    cleanups.push(() => db.close());
    const [event] = await db.orm.em.fork().transactional(async (em) => [probe(em, uniqueKey("fail"), 1)]);
    const metrics = new MetricsRegistry();
    const r = relay({ orm: db.orm, eventBridge, busName: "t-no-such-bus", logger, pollIntervalMs: 100, metrics });
    const row = await waitFor(
      async () => {
        const [x] = await db.orm.em
          .fork()
          .execute(
            `SELECT attempts, last_error, next_attempt_at >= created_at + interval '250 ms' AS later FROM "${db.schema}".outbox_event WHERE id = ? AND attempts > 0`,
            [event?.id],
          );
        return x;
      },
      20_000,
      "a failed attempt",
    );
    assert.ok(row.last_error);
    assert.equal(row.later, true);
    assert.equal(await r.backlog(), 1);
    assert.match(await metrics.render(), /^outbox_backlog 1$/m);
  });
});
