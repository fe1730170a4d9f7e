import type { EventBridgeClient } from "@aws-sdk/client-eventbridge";
import { type Database, schemaOf } from "../db/open-database.ts";
import { inPreparedTransaction } from "../db/prepared-transaction.ts";
import type { MetricsRegistry } from "../http/metrics.ts";
import type { Logger } from "../log/logger.ts";
import {
  claimBatch,
  countFailed,
  markFailed,
  markSent,
  markUndeliverable,
  pruneSent,
  readBacklog,
} from "./claim-batch.ts";
import { emitOutboxLag, writeToStdout } from "./lag-metric.ts";
import { type Listener, listen } from "./listen.ts";
import { MAX_ENTRY_BYTES, publishBatch } from "./publish-batch.ts";

/** Sent rows deleted per statement (keeps each delete short). */
const PRUNE_BATCH = 1000;

export interface OutboxRelayOptions {
  orm: Database;
  eventBridge: EventBridgeClient;
  busName: string;
  logger: Logger;
  /** Rows claimed per round: at most 10, PutEvents' entry limit (default 10). */
  batchSize?: number;
  /** Fallback poll when no notification arrives (default 1000 ms). */
  pollIntervalMs?: number;
  /**
   * After a notification wakes an idle relay, how long it waits for more commits before claiming
   * (default 20 ms): under a stream of writes each round then carries several events, and a round
   * costs the same four statements and one PutEvents whatever it carries (issue 26: most rounds
   * carried one event). 0: claim at once.
   */
  gatherMs?: number;
  /** Cap of the per-row retry backoff (default 60 s). */
  maxBackoffMs?: number;
  /** Sent rows older than this are deleted, a batch at a time (default 7 days). */
  retainSentMs?: number;
  /**
   * Registers the `outbox_backlog` gauge (pending rows) and the `outbox_failed` gauge (rows that
   * will never be published) on the service's /metrics.
   */
  metrics?: MetricsRegistry;
  /**
   * Every `intervalMs` (0: never), one CloudWatch EMF line with the age of the oldest pending row
   * and the backlog, dimension `service` (lag-metric.ts): the figure the outbox-lag alarm reads in
   * production, where nothing scrapes /metrics. `write` defaults to stdout.
   */
  lagMetric?: { service: string; intervalMs: number; write?: (line: string) => void };
  /** Test seam: runs after PutEvents returned and before the rows are marked sent. */
  afterPublish?: (ids: string[]) => void | Promise<void>;
}

export interface OutboxRelay {
  /** Pending rows (the outbox_backlog gauge). */
  backlog(): Promise<number>;
  /** Stops after the round in flight (its rows are marked or left pending, never half-done). */
  stop(): Promise<void>;
}

/**
 * Publishes the service's outbox to EventBridge until stopped.
 *
 * An event PutEvents can never take (its entry over 256 KiB, counted as EventBridge counts it, see
 * publish-batch.ts) gets a terminal state instead of endless retries: `failed_at` is set, one
 * error line names its id, key and size, and the `outbox_failed` gauge counts it.
 *
 * Wake-up: a trigger NOTIFYs `<schema>_outbox` when an insert commits, and the relay LISTENs, so a
 * new event is published within milliseconds while an idle relay costs nothing but one cheap
 * indexed poll per `pollIntervalMs` (the fallback for a lost notification connection, retries
 * whose backoff has elapsed, and rows other relays left behind). While full batches keep coming it
 * loops without sleeping. Each round claims rows with `FOR UPDATE SKIP LOCKED` and holds them only
 * for one PutEvents call, so several replicas can run it.
 *
 * Lag: with `lagMetric`, a timer apart from the rounds writes the oldest pending row's age, so a
 * relay stuck in failing rounds still reports how late its events are. Replicas report the same
 * table's figure; the alarm reads the maximum.
 *
 * @example
 * const relay = startOutboxRelay({ orm, eventBridge: aws.data("eventbridge"), busName: config.EVENT_BUS_NAME, logger, metrics });
 * onShutdown(() => relay.stop());
 */
export function startOutboxRelay(options: OutboxRelayOptions): OutboxRelay {
  const { orm, eventBridge, busName, logger } = options;
  const schema = schemaOf(orm);
  const batchSize = Math.min(Math.max(options.batchSize ?? 10, 1), 10);
  const gatherMs = options.gatherMs ?? 20;
  const pollIntervalMs = options.pollIntervalMs ?? 1000;
  const maxBackoffMs = options.maxBackoffMs ?? 60_000;
  const retainSentMs = options.retainSentMs ?? 7 * 24 * 3600_000;
  const log = logger.child({ component: "outbox-relay", schema });
  const backlog = async () => (await readBacklog(orm.em.fork(), schema)).pending;
  options.metrics?.gauge("outbox_backlog", "Outbox events committed but not yet published", backlog);
  options.metrics?.gauge(
    "outbox_failed",
    "Outbox events that will never be published (over EventBridge's 256 KiB entry limit); each was logged",
    () => countFailed(orm.em.fork(), schema),
  );

  let running = true;
  let wake: (() => void) | undefined;
  let notified = false;
  let listener: Listener | undefined;
  let lastPrune = 0;
  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      if (notified || !running) return resolve();
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        wake = undefined;
        resolve();
      }
      wake = done;
    });
  const poke = () => {
    notified = true;
    wake?.();
  };

  async function ensureListening(): Promise<void> {
    if (listener || !running) return;
    try {
      listener = await listen(orm, `${schema}_outbox`, poke, (err) => {
        listener = undefined;
        log.warn({ err }, "outbox LISTEN connection lost; polling until it is back");
      });
    } catch (err) {
      log.warn({ err }, "outbox LISTEN failed; polling");
    }
  }

  async function round(): Promise<number> {
    notified = false;
    // Prepared statements on one pooled connection, not the unit of work: the claim and the mark
    // run every round, and sent unnamed PostgreSQL planned each of them again every time (issue 26).
    return inPreparedTransaction(orm.em, async (tx) => {
      const rows = await claimBatch(tx, schema, batchSize);
      if (!rows.length) return 0;
      const outcome = await publishBatch(eventBridge, busName, rows);
      await options.afterPublish?.(rows.map((r) => r.id));
      await markSent(tx, schema, outcome.sent);
      await markFailed(tx, schema, outcome.failed, maxBackoffMs);
      await markUndeliverable(tx, schema, outcome.undeliverable);
      for (const u of outcome.undeliverable) {
        // Ids and sizes only: the payload may carry personal data.
        log.error(
          { event_id: u.id, event_key: u.eventKey, size_bytes: u.bytes, limit_bytes: MAX_ENTRY_BYTES },
          "outbox event is larger than EventBridge accepts; marked failed, it will never be published",
        );
      }
      if (outcome.failed.length) {
        log.warn(
          {
            failed: outcome.failed.length,
            sent: outcome.sent.length,
            errors: [...new Set(outcome.failed.map((f) => f.error))],
          },
          "outbox publish partly failed; will retry",
        );
      }
      return rows.length;
    });
  }

  async function maybePrune(): Promise<void> {
    if (Date.now() - lastPrune < 600_000) return;
    lastPrune = Date.now();
    const deleted = await pruneSent(orm.em.fork(), schema, retainSentMs, PRUNE_BATCH);
    if (deleted) log.debug({ deleted }, "pruned sent outbox rows");
    // A full batch means more rows are due: prune again next round rather than in ten minutes, or
    // a service sending more than PRUNE_BATCH events per ten minutes would grow the table forever.
    if (deleted === PRUNE_BATCH) lastPrune = 0;
  }

  const lagTimer = startLagMetric();
  function startLagMetric() {
    const lag = options.lagMetric;
    if (!lag || lag.intervalMs <= 0) return undefined;
    let inFlight: Promise<unknown> | undefined;
    const timer = setInterval(() => {
      if (inFlight) return; // a slow database: skip a beat rather than pile up statements
      inFlight = emitOutboxLag({ em: orm.em.fork(), schema, service: lag.service, write: lag.write ?? writeToStdout })
        .catch((err) => log.warn({ err }, "outbox lag metric not emitted"))
        .finally(() => {
          inFlight = undefined;
        });
    }, lag.intervalMs);
    timer.unref();
    return {
      stop() {
        clearInterval(timer);
        return inFlight; // the statement in flight finishes before the ORM may close
      },
    };
  }

  const loop = (async () => {
    let errorDelay = pollIntervalMs;
    while (running) {
      try {
        await ensureListening();
        const claimed = await round();
        await maybePrune();
        errorDelay = pollIntervalMs;
        if (claimed === batchSize) continue; // more may be waiting
        await sleep(pollIntervalMs);
        if (notified && running && gatherMs > 0) await new Promise((resolve) => setTimeout(resolve, gatherMs));
      } catch (err) {
        log.error({ err }, "outbox relay round failed");
        await sleep(errorDelay);
        errorDelay = Math.min(errorDelay * 2, 30_000);
      }
    }
  })();

  return {
    backlog,
    async stop() {
      running = false;
      wake?.();
      await lagTimer?.stop();
      await loop;
      await listener?.close();
    },
  };
}
