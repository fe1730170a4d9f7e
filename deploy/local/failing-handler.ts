import assert from "node:assert/strict";
import { ReceiveMessageCommand, type SQSClient } from "@aws-sdk/client-sqs";

/**
 * Receives from a queue as a handler that always fails (each receive an attempt, the message back
 * at once) until nothing comes any more: the queue's redrive policy has moved it to the DLQ. Fails
 * when a message is received more often than `maxReceiveCount`; returns how many receives there were.
 * For the DLQ tests (deploy/local/dlq.test.ts, deploy/aws/dlq-alarm.test.ts).
 */
export async function receiveUntilDeadLettered(sqs: SQSClient, queueUrl: string, maxReceiveCount: number) {
  let receives = 0;
  for (;;) {
    const { Messages = [] } = await sqs.send(
      new ReceiveMessageCommand({ QueueUrl: queueUrl, VisibilityTimeout: 0, WaitTimeSeconds: 1 }),
    );
    if (!Messages.length) return receives;
    receives++;
    assert.ok(receives <= maxReceiveCount, "received more often than maxReceiveCount");
  }
}
