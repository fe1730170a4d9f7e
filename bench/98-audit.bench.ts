/**
 * audit-svc's consumer (issue 11): how many events a second it records from its queue, how many
 * database rows an event costs, and how many AWS calls, on the local stack's parts (PostgreSQL with
 * the two roles as production has them, a moto of its own) with the consumer exactly as main.ts
 * builds it (createConsumer + auditConsumer: receive 10, one transaction per event, batch delete).
 *
 * A backlog of every catalog event type (realistic envelopes, a fifth of them delivered twice) is
 * put on a queue before the clock starts, then drained: the steady state of a consumer under load.
 * Baselines, measured in the same run:
 * - events/s and rows per event: the same audit rows written under the platform's default
 *   idempotency (the runner inserts a processed-event record beside each), same backlog;
 * - AWS calls per event: the same audit consumer receiving one message at a time (no batching).
 * AWS calls are counted by a middleware on the SQS client the consumer uses (every HTTP attempt).
 * The queue figure is bounded by moto's answers on a loaded machine; a second row measures the
 * database side alone (the events applied as the runner applies them, ten at once), the part that is
 * audit-svc's own, against the same baseline.
 */
import { randomBytes } from "node:crypto";
import { GetQueueAttributesCommand, SendMessageBatchCommand } from "@aws-sdk/client-sqs";
import { type AuditConsumerDeps, auditConsumer } from "@flowstate/audit-svc/consumers/consumer";
import { domainEvent } from "@flowstate/audit-svc/testing/events";
import { startAuditHarness } from "@flowstate/audit-svc/testing/harness";
import type { DomainEvent } from "@flowstate/contracts/events/catalog";
import { type AwsClients, createAwsClients } from "@flowstate/shared/aws/clients";
import { applyEvent } from "@flowstate/shared/consumer/apply-event";
import { type Consumer, createConsumer } from "@flowstate/shared/consumer/consumer";
import { defineConsumer } from "@flowstate/shared/consumer/define-consumer";
import { waitFor } from "@flowstate/shared/consumer/test-events";
import { createTestQueue } from "@flowstate/shared/consumer/test-queue";
import { newId } from "@flowstate/shared/ids/new-id";
import { startMoto } from "../deploy/local/moto.ts";
import { ensureDatabase, ensurePostgres } from "../deploy/local/postgres.ts";
import type { BenchRow } from "./lib/types.ts";

const EVENTS = 400;
const DUPLICATE_SHARE = 0.2;
const UNBATCHED_EVENTS = 60;
const DB_ONLY_EVENTS = 1000;
const credentials = { accessKeyId: "testing", secretAccessKey: "testing" };

/** A realistic mix: the flow's events in proportion (memberships, keys, offers, MCP calls…). */
function sampleEvents(n: number): DomainEvent[] {
  const tenant = newId("tnt");
  const admin = newId("usr");
  const makers: (() => DomainEvent)[] = [
    () => {
      const sub = newId("usr");
      return domainEvent(
        "MembershipAdded.v1",
        { tenant_id: tenant, sub, role: "member" },
        {
          actor: { kind: "user", sub: admin },
          subject: sub,
          tenant_id: tenant,
          request_id: `req_${randomBytes(8).toString("hex")}`,
        },
      );
    },
    () =>
      domainEvent(
        "FeatureFlagChanged.v1",
        { tenant_id: tenant, flag: "marketplace_offers", enabled: true },
        { actor: { kind: "user", sub: admin }, tenant_id: tenant },
      ),
    () =>
      domainEvent(
        "ApiKeyCreated.v1",
        { tenant_id: tenant, key_id: newId("key"), scope: "read" },
        { actor: { kind: "user", sub: admin }, tenant_id: tenant },
      ),
    () =>
      domainEvent(
        "McpToolCalled.v1",
        { tool: "list_private_offers", tenant_id: tenant, sub: admin, outcome: "ok", duration_ms: 42 },
        { actor: { kind: "api_key", key_id: newId("key"), sub: admin }, tenant_id: tenant },
      ),
    () =>
      domainEvent(
        "OfferChangeFailed.v2",
        {
          tenant_id: tenant,
          change_set_id: randomBytes(13).toString("hex").slice(0, 25),
          action: "release",
          offer_id: "offer-abcdefghijklm",
          failure_code: "CLIENT_ERROR",
          error_codes: ["INVALID_BUYER_ACCOUNTS"],
          changes: [{ change_type: "ReleaseOffer", error_codes: ["INVALID_BUYER_ACCOUNTS"] }],
          principal: "backend",
        },
        { actor: { kind: "user", sub: admin }, tenant_id: tenant },
      ),
    () => {
      const sub = newId("usr");
      return domainEvent("UserSignedUp.v1", { sub }, { actor: { kind: "user", sub }, subject: sub });
    },
  ];
  return Array.from({ length: n }, (_, i) => makers[i % makers.length]!());
}

/** Counts every HTTP attempt of the clients' SQS calls. */
function countCalls(aws: AwsClients) {
  let calls = 0;
  (aws.data("sqs").middlewareStack as { add(mw: unknown, o: object): void }).add(
    (next: (a: unknown) => Promise<unknown>) => (args: unknown) => {
      calls++;
      return next(args);
    },
    { step: "deserialize", name: "benchAuditCallCounter" },
  );
  return { calls: () => calls, reset: () => (calls = 0) };
}

export default async function auditBench(): Promise<BenchRow[]> {
  const adminUrl = process.env.BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/flowstate_bench";
  await ensurePostgres(adminUrl);
  await ensureDatabase(adminUrl);
  const moto = await startMoto();
  const setup = createAwsClients({ endpoint: moto.endpoint, credentials });
  const measured = createAwsClients({ endpoint: moto.endpoint, credentials });
  const counter = countCalls(measured);
  const h = await startAuditHarness({ prefix: "bench_audit", adminUrl, awsEndpoint: moto.endpoint });
  const baselineDb = await startAuditHarness({ prefix: "bench_audit_base", adminUrl, awsEndpoint: moto.endpoint });
  const sqs = setup.data("sqs");
  const consumers: Consumer[] = [];
  try {
    /** A backlog on a queue of its own: the events once, a share of them again, shuffled. */
    async function backlog(events: DomainEvent[]) {
      const queue = await createTestQueue(sqs, { prefix: "bench-audit", visibilityTimeout: 60 });
      const again = events.slice(0, Math.floor(events.length * DUPLICATE_SHARE));
      const bodies = [...events, ...again].map((e) => JSON.stringify(e)).sort(() => Math.random() - 0.5);
      for (let i = 0; i < bodies.length; i += 10)
        await sqs.send(
          new SendMessageBatchCommand({
            QueueUrl: queue.queueUrl,
            Entries: bodies.slice(i, i + 10).map((MessageBody, j) => ({ Id: String(j), MessageBody })),
          }),
        );
      return { queue, messages: bodies.length };
    }
    async function drain(
      definition: typeof auditConsumer,
      deps: AuditConsumerDeps,
      orm: typeof h.orm,
      events: DomainEvent[],
      o: { maxMessages?: number } = {},
    ) {
      const { queue, messages } = await backlog(events);
      counter.reset();
      const started = performance.now();
      const consumer = createConsumer({
        sqs: measured.data("sqs"),
        queueUrl: queue.queueUrl,
        dlqUrl: queue.dlqUrl,
        orm,
        logger: h.logger,
        definition,
        deps,
        waitTimeSeconds: 1,
        ...o,
      }).start();
      consumers.push(consumer);
      await waitFor(() => consumer.stats().deleted >= messages, 600_000, "the backlog drained", 20);
      const seconds = (performance.now() - started) / 1000;
      const calls = counter.calls();
      await consumer.stop();
      const { Attributes } = await sqs.send(
        new GetQueueAttributesCommand({ QueueUrl: queue.queueUrl, AttributeNames: ["ApproximateNumberOfMessages"] }),
      );
      if (Attributes?.ApproximateNumberOfMessages !== "0") throw new Error("messages left on the queue");
      await queue.delete();
      return { seconds, calls, messages, stats: consumer.stats() };
    }
    const rowCount = async (harness: typeof h, tables: string[]) => {
      let n = 0;
      for (const t of tables)
        n += Number((await harness.asOwner<{ n: string }[]>(`SELECT count(*) AS n FROM ${t}`))[0]!.n);
      return n;
    };

    const auditDeps = { schema: h.schema, logger: h.logger };
    // Warm-up (JIT, pools), on its own queue; not counted.
    await drain(auditConsumer, auditDeps, h.orm, sampleEvents(20));
    const warmRows = await rowCount(h, ["audit_event", "processed_event"]);

    // Audit consumer, batched (as main.ts runs it).
    const events = sampleEvents(EVENTS);
    const audit = await drain(auditConsumer, auditDeps, h.orm, events);
    const auditRows = (await rowCount(h, ["audit_event", "processed_event"])) - warmRows;

    // Baseline: the same audit row written under the platform's default idempotency (the runner's
    // processed-event record beside it), on a schema of its own.
    const platformDefault = defineConsumer<AuditConsumerDeps>()({
      service: "bench-audit-platform-default",
      events: "all",
      handlers: auditConsumer.handlers as Parameters<
        ReturnType<typeof defineConsumer<AuditConsumerDeps>>
      >[0]["handlers"],
    });
    const baselineDeps = { schema: baselineDb.schema, logger: h.logger };
    await drain(platformDefault, baselineDeps, baselineDb.orm, sampleEvents(20));
    const baseWarmRows = await rowCount(baselineDb, ["audit_event", "processed_event"]);
    const floor = await drain(platformDefault, baselineDeps, baselineDb.orm, sampleEvents(EVENTS));
    const floorRows = (await rowCount(baselineDb, ["audit_event", "processed_event"])) - baseWarmRows;

    // Baseline for AWS calls: the audit consumer receiving one message at a time.
    const unbatched = await drain(auditConsumer, auditDeps, h.orm, sampleEvents(UNBATCHED_EVENTS), {
      maxMessages: 1,
    });

    // The database side alone (what audit-svc itself costs, without moto's answers): the events
    // applied as the runner applies them, ten at once like one receive, each in its own transaction.
    const dbOnly = async (orm: typeof h.orm, schema: string, idempotency: "handler" | "processed-event") => {
      const handlers = auditConsumer.handlers;
      const deps = { schema, logger: h.logger };
      const batch = sampleEvents(DB_ONLY_EVENTS);
      const started = performance.now();
      for (let i = 0; i < batch.length; i += 10)
        await Promise.all(
          batch.slice(i, i + 10).map((e) => {
            const key = `${e.type}.v${e.version}`;
            return applyEvent(orm, schema, e, key, handlers[key]!, deps, idempotency);
          }),
        );
      return DB_ONLY_EVENTS / ((performance.now() - started) / 1000);
    };
    // Alternating rounds, the median of each: the machine's load drifts during a run.
    const own: number[] = [];
    const platform: number[] = [];
    for (let round = 0; round < 3; round++) {
      own.push(await dbOnly(h.orm, h.schema, "handler"));
      platform.push(await dbOnly(baselineDb.orm, baselineDb.schema, "processed-event"));
    }
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[1]!;
    const dbRate = median(own);
    const dbFloor = median(platform);

    const rate = audit.messages / audit.seconds;
    const floorRate = floor.messages / floor.seconds;
    const rowsPerEvent = auditRows / EVENTS;
    const callsPerMessage = audit.calls / audit.messages;
    const unbatchedCalls = unbatched.calls / unbatched.messages;
    process.stderr.write(
      `  audit: ${audit.messages} messages (${EVENTS} events) in ${audit.seconds.toFixed(1)} s, ${audit.calls} SQS calls; ` +
        `floor ${floor.seconds.toFixed(1)} s; unbatched ${unbatched.calls} calls for ${unbatched.messages}\n`,
    );
    return [
      {
        name: `audit-svc: events recorded/s from its queue (backlog of ${audit.messages}, ${Math.round(DUPLICATE_SHARE * 100)}% redelivered)`,
        value: rate,
        unit: "events/s",
        baseline: { name: "the same rows with the platform's processed-event record", value: floorRate },
        ratio: rate / floorRate,
      },
      {
        name: `audit-svc: events recorded/s, database side only (3 × ${DB_ONLY_EVENTS}, 10 at once as one receive)`,
        value: dbRate,
        unit: "events/s",
        baseline: { name: "the same rows with the platform's processed-event record", value: dbFloor },
        ratio: dbRate / dbFloor,
      },
      {
        name: "audit-svc: database rows per event (audit row = idempotency record)",
        value: rowsPerEvent,
        unit: "rows/event",
        baseline: { name: "the same rows with the platform's processed-event record", value: floorRows / EVENTS },
        ratio: rowsPerEvent / (floorRows / EVENTS),
        target: "1",
        met: rowsPerEvent === 1,
      },
      {
        name: "audit-svc: AWS calls per event, steady state (receive 10, batch delete)",
        value: callsPerMessage,
        unit: "calls/event",
        baseline: { name: "the same consumer, one message per receive", value: unbatchedCalls },
        ratio: callsPerMessage / unbatchedCalls,
        target: "<= 0.35",
        met: callsPerMessage <= 0.35,
      },
    ];
  } finally {
    await Promise.allSettled(consumers.map((c) => c.stop()));
    await h.close();
    await baselineDb.close();
    await moto.stop();
  }
}
