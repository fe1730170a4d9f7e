import { DeleteMessageBatchCommand, type Message, ReceiveMessageCommand, type SQSClient } from "@aws-sdk/client-sqs";
import type { EventCatalog } from "@flowstate/contracts/events/catalog";
import type { EntityManager } from "@mikro-orm/postgresql";
import { type Database, schemaOf } from "../db/open-database.ts";
import type { MetricsRegistry } from "../http/metrics.ts";
import type { Logger } from "../log/logger.ts";
import { pruneProcessed } from "./apply-event.ts";
import { deadLetterer } from "./dead-letter.ts";
import type { ConsumerDefinition } from "./define-consumer.ts";
import { dlqDepthReader } from "./dlq-depth.ts";
import { messageHandler, type Outcome } from "./handle-message.ts";
import type { ConsumerStats } from "./stats.ts";
import { changeVisibility, type InFlight, startHeartbeat } from "./visibility.ts";

/** Processed-event records deleted per statement (keeps each delete short). */
const PRUNE_BATCH = 1000;

export type ConsumerOptions<Deps = undefined> = BaseConsumerOptions<Deps> &
  // The deps are required whenever the declaration's handlers take some.
  (undefined extends Deps ? { deps?: Deps } : { deps: Deps });

interface BaseConsumerOptions<Deps> {
  sqs: SQSClient;
  queueUrl: string;
  orm: Database;
  logger: Logger;
  /** The consumer's declaration (`defineConsumer`): its handlers and the catalog it reads. */
  definition: ConsumerDefinition<EntityManager, EventCatalog, Deps>;
  /** Long-poll wait (default 20, SQS's maximum: fewest empty receives). */
  waitTimeSeconds?: number;
  /**
   * Messages per receive, all handled at once (default: what the pool can serve, see
   * `handlersThePoolServes`; at most 10, SQS's maximum).
   */
  maxMessages?: number;
  /** Visibility given at receive and renewed by the heartbeat while a handler runs (default 30). */
  visibilityTimeoutSeconds?: number;
  /** The DLQ, for dlq_depth and invalid messages; looked up from the queue's RedrivePolicy when omitted. */
  dlqUrl?: string;
  /** Processed-event records older than this are deleted, at most hourly (default 30 days). */
  retainProcessedMs?: number;
  /**
   * Registers `consumer_lag_seconds`, `dlq_depth` (label `queue`) and `consumer_dead_lettered_total`
   * (labels `queue`, `reason`) on the service's /metrics.
   */
  metrics?: MetricsRegistry;
}

export interface Consumer {
  start(): Consumer;
  /**
   * Stops receiving; in-flight messages finish within `deadlineMs` (default 10 s) or go back to the
   * queue at once (visibility 0). The long poll in progress is aborted client-side; SQS may still
   * hand that request a message, which then reappears after one visibility timeout. Call it before
   * closing the ORM.
   */
  stop(options?: { deadlineMs?: number }): Promise<void>;
  stats(): ConsumerStats;
  /** consumer_lag_seconds: age of the oldest message in the last receive (0 when it was empty). */
  lagSeconds(): number;
  /** dlq_depth: messages waiting in the DLQ (cached 30 s). */
  dlqDepth(): Promise<number>;
}

/**
 * An SQS consumer of domain events with idempotent handlers.
 *
 * Each round long-polls up to 10 messages, runs them concurrently (each handler in its own
 * transaction together with its processed-event record, see `applyEvent`), then deletes every
 * finished one in one DeleteMessageBatch. A message that fails validation (or that no handler
 * takes) can never succeed, so it is moved to the DLQ at once (dead-letter.ts). A message whose
 * handler throws is not deleted: it reappears after the visibility timeout and SQS moves it to the
 * DLQ after the queue's maxReceiveCount, while the rest of its batch is deleted normally, so a
 * poison message never blocks the queue. Only the reason and ids are logged, never the body.
 *
 * @example
 * // consumers/handlers.ts: export const privacyConsumer = defineConsumer<PrivacyDeps>()({ service: "privacy-svc",
 * //   handlers: { "AccountDeleted.v1": (event, em, deps) => eraseExports(deps, em, event.data.sub), … } });
 * const consumer = createConsumer({ sqs: aws.data("sqs"), queueUrl, orm, logger, definition: privacyConsumer, deps, metrics }).start();
 * onShutdown(() => consumer.stop());
 */
export function createConsumer<Deps = undefined>(options: ConsumerOptions<Deps>): Consumer {
  const { sqs, queueUrl, orm, definition } = options;
  const schema = schemaOf(orm);
  const waitTimeSeconds = options.waitTimeSeconds ?? 20;
  const maxMessages = options.maxMessages ?? handlersThePoolServes(orm);
  const visibility = options.visibilityTimeoutSeconds ?? 30;
  const queueName = queueUrl.split("/").pop() ?? queueUrl;
  const log = options.logger.child({ component: "consumer", queue: queueName });
  const stats: ConsumerStats = {
    received: 0,
    processed: 0,
    duplicates: 0,
    rejected: 0,
    deadLettered: 0,
    failed: 0,
    deleted: 0,
  };
  const dlqDepth = dlqDepthReader(sqs, queueUrl, options.dlqUrl);
  const deadLetter = deadLetterer({ sqs, queueUrl, dlqUrl: options.dlqUrl, log, metrics: options.metrics });
  let lag = 0;
  let lastPrune = 0;
  const retainProcessedMs = options.retainProcessedMs ?? 30 * 24 * 3600_000;
  options.metrics?.gauge("consumer_lag_seconds", "Age of the oldest message in the consumer's last receive", () => [
    { labels: { queue: queueName }, value: lag },
  ]);
  options.metrics?.gauge("dlq_depth", "Messages waiting in the consumer's dead-letter queue", async () => [
    { labels: { queue: queueName }, value: await dlqDepth() },
  ]);
  let running = false;
  let loop: Promise<void> | undefined;
  let receiving: AbortController | undefined;
  let current: { inFlight: Map<string, InFlight>; done: InFlight[]; abandoned: boolean } | undefined;

  const handleOne = messageHandler({ orm, schema, definition, deps: options.deps as Deps, log, stats, deadLetter });

  async function deleteFinished(done: InFlight[]): Promise<void> {
    if (!done.length) return;
    const res = await sqs.send(
      new DeleteMessageBatchCommand({
        QueueUrl: queueUrl,
        Entries: done.map((m, i) => ({ Id: String(i), ReceiptHandle: m.receiptHandle })),
      }),
    );
    stats.deleted += res.Successful?.length ?? 0;
    // A failed delete only means a redelivery, which the processed-event record turns into a no-op.
    if (res.Failed?.length)
      log.warn({ failed: res.Failed.map((f) => f.Code) }, "some deletes failed; they will be redelivered");
  }

  async function handleBatch(messages: Message[]): Promise<void> {
    const batch = { inFlight: new Map<string, InFlight>(), done: [] as InFlight[], abandoned: false };
    for (const m of messages)
      batch.inFlight.set(m.MessageId as string, {
        id: m.MessageId as string,
        receiptHandle: m.ReceiptHandle as string,
      });
    current = batch;
    const stopHeartbeat = startHeartbeat(
      sqs,
      queueUrl,
      visibility,
      () => [...batch.inFlight.values()],
      (err) => log.warn({ err }, "visibility heartbeat failed"),
    );
    const sameBatch = new Map<string, Promise<Outcome>>();
    try {
      await Promise.all(
        messages.map(async (m) => {
          const outcome = await handleOne(m, sameBatch);
          const entry = batch.inFlight.get(m.MessageId as string);
          batch.inFlight.delete(m.MessageId as string);
          if (outcome === "ack" && entry) batch.done.push(entry);
        }),
      );
    } finally {
      stopHeartbeat();
    }
    if (batch.abandoned) return; // stop() already settled this batch
    current = undefined;
    await deleteFinished(batch.done);
  }

  async function run(): Promise<void> {
    let errorDelay = 500;
    while (running) {
      receiving = new AbortController();
      let messages: Message[];
      try {
        const res = await sqs.send(
          new ReceiveMessageCommand({
            QueueUrl: queueUrl,
            MaxNumberOfMessages: maxMessages,
            WaitTimeSeconds: waitTimeSeconds,
            VisibilityTimeout: visibility,
            MessageSystemAttributeNames: ["ApproximateReceiveCount", "SentTimestamp"],
            // Carried over unchanged when a message is moved to the DLQ.
            MessageAttributeNames: ["All"],
          }),
          // stop() aborts the long poll; the timeout guards against a connection that never answers.
          { abortSignal: AbortSignal.any([receiving.signal, AbortSignal.timeout((waitTimeSeconds + 15) * 1000)]) },
        );
        messages = res.Messages ?? [];
        errorDelay = 500;
      } catch (err) {
        if (!running) return;
        log.error({ err }, "receive failed");
        await new Promise((r) => setTimeout(r, errorDelay));
        errorDelay = Math.min(errorDelay * 2, 20_000);
        continue;
      }
      const now = Date.now();
      if (now - lastPrune > 3600_000) {
        lastPrune = now;
        const pruned = await pruneProcessed(orm.em.fork(), schema, retainProcessedMs, PRUNE_BATCH).catch((err) => {
          log.warn({ err }, "pruning processed events failed");
          return 0;
        });
        // A full batch means more records are due: prune again next round rather than in an hour,
        // or a consumer taking more than PRUNE_BATCH events an hour would grow the table forever.
        if (pruned === PRUNE_BATCH) lastPrune = 0;
      }
      lag = messages.reduce((max, m) => Math.max(max, (now - Number(m.Attributes?.SentTimestamp ?? now)) / 1000), 0);
      stats.received += messages.length;
      if (messages.length) {
        try {
          await handleBatch(messages);
        } catch (err) {
          log.error({ err }, "batch delete failed; the messages will be redelivered");
        }
      }
    }
  }

  const consumer: Consumer = {
    start() {
      if (running) return consumer;
      running = true;
      loop = run();
      return consumer;
    },
    async stop({ deadlineMs = 10_000 } = {}) {
      if (!running) return;
      running = false;
      receiving?.abort();
      let timer: NodeJS.Timeout | undefined;
      const finished = await Promise.race([
        loop?.then(() => true),
        new Promise<boolean>((r) => {
          timer = setTimeout(() => r(false), deadlineMs);
        }),
      ]);
      clearTimeout(timer);
      const batch = current;
      if (finished || !batch) return;
      // Deadline passed: keep what finished, hand the rest back at once instead of after the timeout.
      batch.abandoned = true;
      const unfinished = [...batch.inFlight.values()];
      log.warn({ unfinished: unfinished.length }, "stop deadline passed; returning unfinished messages to the queue");
      await Promise.allSettled([deleteFinished(batch.done), changeVisibility(sqs, queueUrl, unfinished, 0)]);
    },
    stats: () => ({ ...stats }),
    lagSeconds: () => lag,
    dlqDepth,
  };
  return consumer;
}

export type { ConsumerStats } from "./stats.ts";

/**
 * How many handlers may run at once on this ORM's pool. A handler holds its transaction's
 * connection and may briefly take a second one (an autocommit claim, a status committed at once),
 * so running as many handlers as the pool has connections lets every one hold its first and wait
 * for a second that never frees: a deadlock (seen as a privacy export hanging, 5 connections in
 * tests, 10 messages a receive). Two connections a handler, one left for requests.
 */
export function handlersThePoolServes(orm: Pick<Database, "config">): number {
  const poolMax = orm.config.get("pool")?.max ?? 10;
  return Math.max(1, Math.min(10, Math.floor((poolMax - 1) / 2)));
}
