/**
 * (b) The event path outbox → EventBridge → SQS → consumer, with the real relay and consumer on a
 * moto this file starts itself and a throwaway PostgreSQL schema.
 *
 * Two phases, because moto delivers an EventBridge event into SQS in ~130 ms, one at a time
 * (ARCHITECTURE.md "Local stack"), so messages trickle into the queue one by one however fast the
 * project is:
 * - low rate: one event per transaction every 250 ms, consumer running. Gives the latency (commit
 *   → handler) and the calls per event of a quiet system (mostly 1-message receives).
 * - steady state: events committed 10 per transaction, published by the relay, then consumed from
 *   the backlogged queue, as a consumer under load sees it (every receive full). This is the
 *   issue's "steady state with batching": PutEvents 10/call, receive 10, batch delete.
 * AWS calls are counted by a middleware on the clients the relay and consumer use (every HTTP
 * attempt, retries included); CPU is process.cpuUsage() of this process (moto and PostgreSQL run
 * in their own processes and are not counted).
 *
 * Run alone: node_modules/.bin/node -e 'const m = await import("./bench/20-event-path.bench.ts"); console.table(await m.default())'
 */

import { testEventCatalog } from "@flowstate/contracts/events/test-catalog";
import { type AwsClients, createAwsClients } from "@flowstate/shared/aws/clients";
import { createConsumer } from "@flowstate/shared/consumer/consumer";
import { defineConsumer } from "@flowstate/shared/consumer/define-consumer";
import { uniqueKey, waitFor } from "@flowstate/shared/consumer/test-events";
import { createTestQueue } from "@flowstate/shared/consumer/test-queue";
import { openTestDatabase } from "@flowstate/shared/db/test-database";
import { createLogger } from "@flowstate/shared/log/logger";
import { enqueueEvent } from "@flowstate/shared/outbox/enqueue-event";
import { systemActor } from "@flowstate/shared/outbox/event-actor";
import { startOutboxRelay } from "@flowstate/shared/outbox/relay";
import { createTestBus } from "@flowstate/shared/outbox/test-bus";
import { startMoto } from "../deploy/local/moto.ts";
import { ensureDatabase, ensurePostgres } from "../deploy/local/postgres.ts";
import type { BenchRow } from "./lib/types.ts";

// moto needs 130–400 ms per delivered event depending on machine load: keep the run near 30 s.
const LOW_RATE_EVENTS = 25;
const LOW_RATE_GAP_MS = 400; // slower than moto's delivery, so the latency is not moto's queueing
const STEADY_EVENTS = 50;
const credentials = { accessKeyId: "testing", secretAccessKey: "testing" };
const source = "flowstate.platform-bench";
const actor = systemActor("platform-bench");

/** Counts every HTTP attempt of the given clients, by command, and times the PutEvents calls. */
function countCalls(aws: AwsClients) {
  const calls: Record<string, number> = {};
  const putEventsMs: number[] = [];
  for (const client of [aws.data("sqs"), aws.data("eventbridge")]) {
    (client.middlewareStack as { add(mw: unknown, o: object): void }).add(
      (next: (a: unknown) => Promise<unknown>, context: { commandName?: string }) => (args: unknown) => {
        const name = context.commandName ?? "unknown";
        calls[name] = (calls[name] ?? 0) + 1;
        if (name !== "PutEventsCommand") return next(args);
        const started = performance.now();
        return next(args).finally(() => putEventsMs.push(performance.now() - started));
      },
      { step: "deserialize", name: "benchCallCounter" },
    );
  }
  return {
    total: () => Object.values(calls).reduce((a, b) => a + b, 0),
    byCommand: () => ({ ...calls }),
    putEventsMs: () => [...putEventsMs],
    reset: () => {
      putEventsMs.length = 0;
      for (const k of Object.keys(calls)) delete calls[k];
    },
  };
}

const percentile = (xs: number[], p: number) => {
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN;
};
const cpuMs = (since: NodeJS.CpuUsage) => {
  const d = process.cpuUsage(since);
  return (d.user + d.system) / 1000;
};

export default async function eventPath(): Promise<BenchRow[]> {
  const url = process.env.DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/flowstate_test";
  await ensurePostgres(url);
  await ensureDatabase(url);
  const moto = await startMoto();
  const setup = createAwsClients({ endpoint: moto.endpoint, credentials });
  const measured = createAwsClients({ endpoint: moto.endpoint, credentials });
  const counter = countCalls(measured);
  const logger = createLogger({ service: "bench-event-path", level: "warn" });
  const effect = { name: "0001_effect", up: "CREATE TABLE bench_effect (event_id text PRIMARY KEY)" };
  const db = await openTestDatabase({ prefix: "bench_event_path", migrations: [effect], url });
  const latencies: number[] = [];
  let handled = 0;
  const cleanups: (() => Promise<unknown>)[] = [];

  /**
   * A queue + DLQ, a bus routing into it, a relay publishing to that bus, and a consumer factory.
   * Each phase gets its own: a stopped consumer's aborted long poll stays open at the server and
   * would swallow (for one visibility timeout) the first message of a next phase on the same queue.
   */
  async function pipeline() {
    const queue = await createTestQueue(setup.data("sqs"), { prefix: "bench", visibilityTimeout: 30 });
    const bus = await createTestBus(setup.data("eventbridge"), queue.queueArn);
    const relay = startOutboxRelay({
      orm: db.orm,
      eventBridge: measured.data("eventbridge"),
      busName: bus.busName,
      logger,
    });
    cleanups.push(() => Promise.allSettled([bus.delete(), queue.delete()]));
    const consumer = () =>
      createConsumer({
        sqs: measured.data("sqs"),
        queueUrl: queue.queueUrl,
        dlqUrl: queue.dlqUrl,
        orm: db.orm,
        logger,
        definition: defineConsumer()({
          service: "bench-event-path",
          catalog: testEventCatalog,
          events: ["PlatformProbe"],
          handlers: {
            "PlatformProbe.v1": async (event, em) => {
              latencies.push(Date.now() - Date.parse(event.occurred_at));
              handled++;
              await em.execute(`INSERT INTO "${db.schema}".bench_effect (event_id) VALUES (?)`, [event.id]);
            },
          },
        }),
      }).start();
    return { relay, consumer };
  }
  const commit = (key: string, from: number, count: number) =>
    db.orm.em.fork().transactional(async (em) => {
      for (let i = 0; i < count; i++)
        enqueueEvent(em, "PlatformProbe.v1", { key, seq: from + i }, { source, actor }, testEventCatalog);
    });
  try {
    // Low rate: latency and the cost of a quiet system.
    const low = await pipeline();
    const lowConsumer = low.consumer();
    await commit(uniqueKey("warmup"), 0, 1);
    await waitFor(() => handled === 1, 20_000, "warm-up event");
    latencies.length = 0;
    handled = 0;
    counter.reset();
    const lowKey = uniqueKey("low");
    for (let i = 0; i < LOW_RATE_EVENTS; i++) {
      await commit(lowKey, i, 1);
      await new Promise((r) => setTimeout(r, LOW_RATE_GAP_MS));
    }
    await waitFor(
      () => handled === LOW_RATE_EVENTS && lowConsumer.stats().deleted === LOW_RATE_EVENTS + 1,
      30_000,
      "low-rate events",
    );
    const lowCalls = counter.total() / LOW_RATE_EVENTS;
    const lowPutEvents = counter.putEventsMs();
    const lowLatency = [...latencies];
    await Promise.all([lowConsumer.stop(), low.relay.stop()]);

    // Steady state: full batches at every step.
    const steady = await pipeline();
    counter.reset();
    handled = 0;
    const cpuStart = process.cpuUsage();
    const steadyKey = uniqueKey("steady");
    for (let i = 0; i < STEADY_EVENTS; i += 10) await commit(steadyKey, i, 10);
    // Poll the backlog rarely: this process's CPU is what is measured.
    await waitFor(async () => (await steady.relay.backlog()) === 0, 45_000, "the relay", 1000);
    const steadyConsumer = steady.consumer();
    await waitFor(
      () => handled === STEADY_EVENTS && steadyConsumer.stats().deleted === STEADY_EVENTS,
      30_000,
      "steady-state events",
      20,
    );
    await Promise.all([steadyConsumer.stop(), steady.relay.stop()]);
    const steadyCpu = cpuMs(cpuStart) / STEADY_EVENTS;
    const steadyCalls = counter.total() / STEADY_EVENTS;
    const byCommand = Object.entries(counter.byCommand())
      .map(([k, v]) => `${k.replace(/Command$/, "")} ${v}`)
      .join(", ");

    return [
      {
        name: `event path latency p50, commit → handler (moto, 1 event per ${LOW_RATE_GAP_MS} ms, n=${LOW_RATE_EVENTS})`,
        value: percentile(lowLatency, 50),
        unit: "ms",
      },
      { name: "event path latency p99, commit → handler (same run)", value: percentile(lowLatency, 99), unit: "ms" },
      {
        name: "  of which PutEvents p50 (moto's EventBridge → SQS delivery happens inside this call)",
        value: Math.round(percentile(lowPutEvents, 50)),
        unit: "ms",
      },
      {
        name: "AWS API calls per event, low rate (mostly 1-message receives)",
        value: round(lowCalls),
        unit: "calls/event",
      },
      {
        name: `AWS API calls per event, steady state (n=${STEADY_EVENTS}: ${byCommand})`,
        value: round(steadyCalls),
        unit: "calls/event",
        target: "<= 0.35",
        met: steadyCalls <= 0.35,
      },
      {
        name: "project CPU per event, steady state (enqueue + relay + consumer, this process)",
        value: round(steadyCpu),
        unit: "ms CPU/event",
      },
    ];
  } finally {
    for (const c of cleanups) await c();
    await db.close();
    await moto.stop();
  }
}

const round = (x: number) => Math.round(x * 1000) / 1000;
