import type { Message, SQSClient } from "@aws-sdk/client-sqs";
import type { Logger } from "../log/logger.ts";
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
}

export interface StatelessConsumer {
  stop(): Promise<void>;
  stats(): { received: number; applied: number; rejected: number; receiveErrors: number };
}

/**
 * Runs a consumer that keeps no database: long-polls its queue, validates each message, runs the
 * handler the definition declares for its key, and deletes what was applied in one batch. Anything
 * else (invalid, or an event it does not handle) stays for the DLQ; only ids and reasons are
 * logged. Not `createConsumer`: that one records processed ids in the same transaction as the
 * effect, which a process without a database cannot, and an idempotent effect does not need.
 *
 * @example
 * const consumer = startStatelessConsumer({ sqs, queueUrl, logger, definition: revocations, context: gateway });
 */
export function startStatelessConsumer<Ctx>(options: StatelessConsumerOptions<Ctx>): StatelessConsumer {
  const { definition, context } = options;
  const log = options.logger.child({ component: "consumer", queue: options.queueUrl.split("/").pop() });
  const stats = { received: 0, applied: 0, rejected: 0, receiveErrors: 0 };
  const loop = startQueueLoop({
    sqs: options.sqs,
    queueUrl: options.queueUrl,
    ...(options.waitTimeSeconds !== undefined ? { waitTimeSeconds: options.waitTimeSeconds } : {}),
    async handle(messages) {
      stats.received += messages.length;
      const done: Message[] = [];
      for (const message of messages) {
        const decoded = decodeMessage(message.Body, definition.catalog);
        const handler =
          decoded.ok && Object.hasOwn(definition.handlers, decoded.key) ? definition.handlers[decoded.key] : undefined;
        try {
          if (!decoded.ok || !handler) throw new Error(decoded.ok ? `no handler for ${decoded.key}` : decoded.reason);
          await handler(decoded.event as never, context);
        } catch (err) {
          // A routing mistake, poison or a failing handler: left for redelivery and the DLQ, ids only.
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
