import {
  DeleteMessageCommand,
  GetQueueAttributesCommand,
  GetQueueUrlCommand,
  type Message,
  type MessageAttributeValue,
  SendMessageCommand,
  type SQSClient,
} from "@aws-sdk/client-sqs";
import type { MetricsRegistry } from "../http/metrics.ts";
import type { Logger } from "../log/logger.ts";

/**
 * Why a message went to the DLQ without waiting for redrive: it failed validation (the reasons of
 * `decodeMessage`), or it is a valid event this consumer has no handler for (a routing mistake).
 * Neither changes on a redelivery, so the maxReceiveCount receives SQS would otherwise wait for
 * only delay the alarm and cost a visibility timeout each. Handler errors are not here: they may
 * be transient and keep SQS's redrive.
 */
export type DeadLetterReason = "invalid_json" | "invalid_envelope" | "unknown_event" | "invalid_data" | "no_handler";

/** Message attributes the copy in the DLQ carries, so whoever inspects or redrives it sees why. */
export const DEAD_LETTER_ATTRIBUTES = { reason: "flowstate-dead-letter-reason", queue: "flowstate-source-queue" };

/**
 * The queue's DLQ URL, from its RedrivePolicy: the queue SQS itself moves messages to after
 * maxReceiveCount receives (the bootstrap names it `<queue>-dlq`, `queueNames`; the policy is the
 * fact, the name only the convention).
 */
export async function dlqUrlOf(sqs: SQSClient, queueUrl: string): Promise<string> {
  const res = await sqs.send(new GetQueueAttributesCommand({ QueueUrl: queueUrl, AttributeNames: ["RedrivePolicy"] }));
  const arn = JSON.parse(res.Attributes?.RedrivePolicy ?? "{}").deadLetterTargetArn as string | undefined;
  if (!arn) throw new Error("the queue has no RedrivePolicy, so it has no DLQ");
  const [, , , , accountId, name] = arn.split(":");
  const url = (await sqs.send(new GetQueueUrlCommand({ QueueName: name, QueueOwnerAWSAccountId: accountId }))).QueueUrl;
  if (!url) throw new Error(`the DLQ ${name} has no URL`);
  return url;
}

export interface DeadLetterer {
  /**
   * Copies the message to the DLQ (body and attributes unchanged, plus the reason) and deletes it
   * from the queue. False when the copy failed: the message then stays and reaches the DLQ by
   * redrive as before, nothing is lost.
   */
  send(message: Message, reason: DeadLetterReason, context?: Record<string, unknown>): Promise<boolean>;
  /** Messages moved so far, by reason. */
  counts(): Partial<Record<DeadLetterReason, number>>;
}

/**
 * Moves messages that can never be handled to the DLQ at once, with one log line each (ids and the
 * reason, never the body: it may carry personal data) and the `consumer_dead_lettered_total`
 * counter (labels `queue`, `reason`). SendMessage and then DeleteMessage: a crash between the two
 * leaves a copy in both queues, and the redelivered one is moved again (a duplicate in the DLQ, never
 * a loss). ChangeMessageVisibility cannot do it: only receives count towards the redrive.
 *
 * @example
 * const dead = deadLetterer({ sqs, queueUrl, log, metrics });
 * if (!decoded.ok && (await dead.send(message, decoded.reason))) done.push(message);
 */
export function deadLetterer(options: {
  sqs: SQSClient;
  queueUrl: string;
  /** Resolved from the queue's RedrivePolicy (once) when omitted. */
  dlqUrl?: string | undefined;
  log: Logger;
  metrics?: MetricsRegistry | undefined;
}): DeadLetterer {
  const { sqs, queueUrl, log } = options;
  const queue = queueUrl.split("/").pop() ?? queueUrl;
  const counts: Partial<Record<DeadLetterReason, number>> = {};
  let dlq: Promise<string> | undefined = options.dlqUrl ? Promise.resolve(options.dlqUrl) : undefined;
  options.metrics?.counter(
    "consumer_dead_lettered_total",
    "Messages moved to the DLQ at once because they can never be handled (invalid, or no handler)",
    () => Object.entries(counts).map(([reason, value]) => ({ labels: { queue, reason }, value: value ?? 0 })),
  );

  return {
    counts: () => ({ ...counts }),
    async send(message, reason, context = {}) {
      const ids = { message_id: message.MessageId, reason, ...context };
      let dlqUrl: string;
      try {
        dlq ??= dlqUrlOf(sqs, queueUrl);
        dlqUrl = await dlq;
        const attributes: Record<string, MessageAttributeValue> = {
          ...message.MessageAttributes,
          [DEAD_LETTER_ATTRIBUTES.reason]: { DataType: "String", StringValue: reason },
          [DEAD_LETTER_ATTRIBUTES.queue]: { DataType: "String", StringValue: queue },
        };
        await sqs.send(
          new SendMessageCommand({ QueueUrl: dlqUrl, MessageBody: message.Body ?? "", MessageAttributes: attributes }),
        );
      } catch (err) {
        // A failed lookup is retried with the next message; a DLQ given by the caller stays the one
        // used (falling back to the RedrivePolicy's would move the message somewhere it was not sent).
        if (!options.dlqUrl) dlq = undefined;
        log.error({ ...ids, err }, "could not move the message to the DLQ; it stays for redrive");
        return false;
      }
      counts[reason] = (counts[reason] ?? 0) + 1;
      log.warn({ ...ids, dlq: dlqUrl.split("/").pop() }, "message moved to the DLQ at once: it can never be handled");
      try {
        await sqs.send(new DeleteMessageCommand({ QueueUrl: queueUrl, ReceiptHandle: message.ReceiptHandle }));
      } catch (err) {
        // Redelivered later and moved again: a duplicate in the DLQ, nothing lost.
        log.warn({ ...ids, err }, "moved to the DLQ but not deleted from the queue; it will be moved again");
      }
      return true;
    },
  };
}
