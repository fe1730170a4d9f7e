import { ChangeMessageVisibilityBatchCommand, type SQSClient } from "@aws-sdk/client-sqs";

export interface InFlight {
  id: string;
  receiptHandle: string;
}

/** Sets the visibility of several messages in one call (at most 10: one receive's worth). */
export async function changeVisibility(
  sqs: SQSClient,
  queueUrl: string,
  messages: InFlight[],
  seconds: number,
): Promise<void> {
  if (!messages.length) return;
  await sqs.send(
    new ChangeMessageVisibilityBatchCommand({
      QueueUrl: queueUrl,
      Entries: messages.map((m, i) => ({ Id: String(i), ReceiptHandle: m.receiptHandle, VisibilityTimeout: seconds })),
    }),
  );
}

/**
 * Keeps a batch's unfinished messages invisible while their handlers run: every third of the
 * visibility timeout it extends the ones still in flight by a full timeout, in one batch call. A
 * batch that finishes within a third of the timeout (the usual case) costs no extra call. If the
 * process dies, the extensions stop and the messages reappear within one timeout.
 */
export function startHeartbeat(
  sqs: SQSClient,
  queueUrl: string,
  visibilityTimeoutSeconds: number,
  pending: () => InFlight[],
  onError: (err: unknown) => void,
): () => void {
  const timer = setInterval(
    () => {
      changeVisibility(sqs, queueUrl, pending(), visibilityTimeoutSeconds).catch(onError);
    },
    Math.max(200, (visibilityTimeoutSeconds * 1000) / 3),
  );
  return () => clearInterval(timer);
}
