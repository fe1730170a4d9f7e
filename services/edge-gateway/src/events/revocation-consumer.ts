import { DeleteMessageBatchCommand, ReceiveMessageCommand, type SQSClient } from "@aws-sdk/client-sqs";
import type { Invalidation } from "@flowstate/contracts/internal/identity";
import { decodeMessage } from "@flowstate/shared/consumer/decode-message";
import type { Logger } from "@flowstate/shared/log/logger";

export interface RevocationConsumerOptions {
  sqs: SQSClient;
  queueUrl: string;
  logger: Logger;
  /** Applies invalidations to this instance's caches (Gateway.invalidate). */
  invalidate: (list: readonly Invalidation[]) => void;
  /** Drops every cached access fact (Gateway.invalidateAll). */
  invalidateAll: () => void;
  waitTimeSeconds?: number;
}

export interface RevocationConsumer {
  stop(): Promise<void>;
  stats(): { received: number; applied: number; rejected: number; receiveErrors: number };
}

/**
 * Applies AccessRevoked events from revoking calls that went through OTHER gateway instances.
 * Not shared/src/consumer: that one records processed event ids in a database for idempotency,
 * and the gateway has no database and needs none: applying an invalidation twice is harmless.
 *
 * After a failed receive the events of the gap may be lost to this instance, so the first
 * successful receive afterwards drops every cached fact: an outage of the queue can cost cache
 * hits, never a revocation.
 *
 * @example
 * const consumer = startRevocationConsumer({ sqs, queueUrl, logger, invalidate: gw.invalidate, invalidateAll: gw.invalidateAll });
 */
export function startRevocationConsumer(options: RevocationConsumerOptions): RevocationConsumer {
  const { sqs, queueUrl, logger } = options;
  const log = logger.child({ component: "revocation-consumer" });
  const stats = { received: 0, applied: 0, rejected: 0, receiveErrors: 0 };
  const abort = new AbortController();
  let failing = false;

  async function round(): Promise<void> {
    const answer = await sqs.send(
      new ReceiveMessageCommand({
        QueueUrl: queueUrl,
        MaxNumberOfMessages: 10,
        WaitTimeSeconds: options.waitTimeSeconds ?? 20,
      }),
      { abortSignal: abort.signal },
    );
    if (failing) {
      failing = false;
      options.invalidateAll();
      log.warn("receiving again after an error; dropped every cached access fact");
    }
    const messages = answer.Messages ?? [];
    stats.received += messages.length;
    const done: { Id: string; ReceiptHandle: string }[] = [];
    for (const [i, message] of messages.entries()) {
      const decoded = decodeMessage(message.Body);
      if (decoded.ok && decoded.key === "AccessRevoked.v1") {
        options.invalidate([decoded.event.data as Invalidation]);
        stats.applied++;
      } else {
        // Anything else on this queue is a routing mistake or poison: left for the DLQ, ids only.
        stats.rejected++;
        log.warn(
          { message_id: message.MessageId, reason: decoded.ok ? `unexpected ${decoded.key}` : decoded.reason },
          "event rejected",
        );
        continue;
      }
      done.push({ Id: String(i), ReceiptHandle: message.ReceiptHandle! });
    }
    if (done.length) await sqs.send(new DeleteMessageBatchCommand({ QueueUrl: queueUrl, Entries: done }));
  }

  const loop = (async () => {
    while (!abort.signal.aborted) {
      try {
        await round();
      } catch (err) {
        if (abort.signal.aborted) break;
        failing = true;
        stats.receiveErrors++;
        log.error({ err }, "receiving revocations failed; retrying");
        await new Promise((resolve) => setTimeout(resolve, 1_000));
      }
    }
  })();

  return {
    async stop() {
      abort.abort();
      await loop;
    },
    stats: () => ({ ...stats }),
  };
}
