import { randomBytes } from "node:crypto";
import { CreateQueueCommand, DeleteQueueCommand, GetQueueAttributesCommand, type SQSClient } from "@aws-sdk/client-sqs";

export interface TestQueue {
  queueUrl: string;
  queueArn: string;
  dlqUrl: string;
  /** Deletes both queues. */
  delete(): Promise<void>;
}

/**
 * Creates a uniquely named queue and its DLQ (as the bootstrap does for a consumer) for one test.
 * Short visibility timeouts keep redrive tests fast.
 *
 * @example
 * const q = await createTestQueue(sqs, { prefix: "consumer", maxReceiveCount: 2, visibilityTimeout: 1 });
 */
export async function createTestQueue(
  sqs: SQSClient,
  options: { prefix?: string; maxReceiveCount?: number; visibilityTimeout?: number } = {},
): Promise<TestQueue> {
  const name = `t-${options.prefix ?? "q"}-${randomBytes(5).toString("hex")}`;
  const dlq = await sqs.send(new CreateQueueCommand({ QueueName: `${name}-dlq` }));
  const dlqUrl = dlq.QueueUrl as string;
  const dlqArn = await arnOf(sqs, dlqUrl);
  const queue = await sqs.send(
    new CreateQueueCommand({
      QueueName: name,
      Attributes: {
        VisibilityTimeout: String(options.visibilityTimeout ?? 5),
        RedrivePolicy: JSON.stringify({ deadLetterTargetArn: dlqArn, maxReceiveCount: options.maxReceiveCount ?? 3 }),
      },
    }),
  );
  const queueUrl = queue.QueueUrl as string;
  return {
    queueUrl,
    queueArn: await arnOf(sqs, queueUrl),
    dlqUrl,
    async delete() {
      await sqs.send(new DeleteQueueCommand({ QueueUrl: queueUrl }));
      await sqs.send(new DeleteQueueCommand({ QueueUrl: dlqUrl }));
    },
  };
}

async function arnOf(sqs: SQSClient, queueUrl: string): Promise<string> {
  const res = await sqs.send(new GetQueueAttributesCommand({ QueueUrl: queueUrl, AttributeNames: ["QueueArn"] }));
  return res.Attributes?.QueueArn as string;
}
