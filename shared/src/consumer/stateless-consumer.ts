import type { Message, SQSClient } from "@aws-sdk/client-sqs";
import type { MetricsRegistry } from "../http/metrics.ts";
import type { Logger } from "../log/logger.ts";
import { deadLetterer } from "./dead-letter.ts";
import { decodeMessage } from "./decode-message.ts";
import type { ConsumerDefinition } from "./define-consumer.ts";
import { startQueueLoop } from "./queue-loop.ts";

export interface StatelessConsumerOptions<Ctx> {
  sqs: SQSClient;
  queueUrl: string;
  logger: Logger;
  definition: ConsumerDefinition<Ctx>;
  /** What the handlers act on (the gateway's caches, a tenant map). */
  context: Ctx;
  /**
   * Called on the first successful receive after a failed one: events of the gap may be lost to
   * this instance (e.g. the gateway then drops every cached fact).
   */
  onRecovered?: () => void;
  waitTimeSeconds?: number;
  /** The DLQ for messages that can never be handled; looked up from the queue's RedrivePolicy when omitted. */
  dlqUrl?: string;
  /** Registers `consumer_dead_lettered_total` (labels `queue`, `reason`) on the process's /metrics. */
  metrics?: MetricsRegistry;
}

export interface StatelessConsumer {
  stop(): Promise<void>;
  stats(): { received: number; applied: number; rejected: number; deadLettered: number; receiveErrors: number };
}

/**
 * Runs a consumer that keeps no database: long-polls its queue, validates each message, runs the
 * handler the definition declares for its key, and deletes what was applied in one batch. A
 * message that is invalid or that it has no handler for goes to the DLQ at once (dead-letter.ts);
 * one whose handler throws stays for redelivery and, after maxReceiveCount, the DLQ. Only ids and
 * reasons are logged. Not `createConsumer`: that one records processed ids in the same transaction as the
 * effect, which a process without a database cannot, and an idempotent effect does not need.
 *
 * @example
 * const consumer = startStatelessConsumer({ sqs, queueUrl, logger, definition: revocations, context: gateway });
 */
export function startStatelessConsumer<Ctx>(options: StatelessConsumerOptions<Ctx>): StatelessConsumer {
  const { definition, context } = options;
  const log = options.logger.child({ component: "consumer", queue: options.queueUrl.split("/").pop() });
  const stats = { received: 0, applied: 0, rejected: 0, deadLettered: 0, receiveErrors: 0 };
  const deadLetter = deadLetterer({
    sqs: options.sqs,
    queueUrl: options.queueUrl,
    dlqUrl: options.dlqUrl,
    log,
    metrics: options.metrics,
  });
  const loop = startQueueLoop({
    sqs: options.sqs,
    queueUrl: options.queueUrl,
    ...(options.waitTimeSeconds !== undefined ? { waitTimeSeconds: options.waitTimeSeconds } : {}),
    async handle(messages) {
      stats.received += messages.length;
      const done: Message[] = [];
      for (const message of messages) {
        const decoded = decodeMessage(message.Body, definition.catalog);
        // Own keys only: an event key that names an Object.prototype member is not a handler.
        const handler =
          decoded.ok && Object.hasOwn(definition.handlers, decoded.key) ? definition.handlers[decoded.key] : undefined;
        if (!decoded.ok || !handler) {
          // Invalid, or a routing mistake: no redelivery can change that. The mover deletes it.
          stats.rejected++;
          const moved = await deadLetter.send(
            message,
            decoded.ok ? "no_handler" : decoded.reason,
            decoded.ok ? { event_id: decoded.event.id, event_key: decoded.key } : { issues: decoded.issues },
          );
          if (moved) stats.deadLettered++;
          continue;
        }
        try {
          await handler(decoded.event as never, context, undefined);
        } catch (err) {
          // A failing handler may be transient: left for redelivery and, in the end, the DLQ; ids only.
          stats.rejected++;
          log.warn({ message_id: message.MessageId, reason: (err as Error).message }, "event rejected");
          continue;
        }
        stats.applied++;
        done.push(message);
      }
      return done;
    },
    onError(err) {
      stats.receiveErrors++;
      log.error({ err }, "receiving events failed; retrying");
    },
    ...(options.onRecovered ? { onRecovered: options.onRecovered } : {}),
  });
  return { stop: () => loop.stop(), stats: () => ({ ...stats }) };
}
