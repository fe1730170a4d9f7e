import { DeleteMessageBatchCommand, type Message, ReceiveMessageCommand, type SQSClient } from "@aws-sdk/client-sqs";

export interface QueueLoopOptions {
  sqs: SQSClient;
  queueUrl: string;
  /** Long-poll wait (default 20 s, SQS's maximum: fewest empty receives). */
  waitTimeSeconds?: number;
  /** Handles one receive (up to 10 messages) and returns the messages to delete; the rest are redelivered. */
  handle(messages: Message[]): Promise<Message[]>;
  /** A receive, handle or delete failed; the loop waits a second and goes on. */
  onError(err: unknown): void;
  /** The first successful receive after a failed one (what arrived meanwhile may be lost to this process). */
  onRecovered?: () => void;
}

/**
 * The receive loop of the queue readers that keep no database (stateless consumers, the partner
 * pump): long-poll up to 10 messages, hand them over, delete the finished ones in one batch, and
 * after a failure wait a second rather than spin. `createConsumer` has its own loop: it also
 * renews visibility and records processed ids.
 *
 * @example
 * const loop = startQueueLoop({ sqs, queueUrl, handle: async (messages) => messages, onError: (err) => log.error({ err }) });
 * await loop.stop();
 */
export function startQueueLoop(options: QueueLoopOptions): { stop(): Promise<void> } {
  const { sqs, queueUrl } = options;
  const abort = new AbortController();
  let failing = false;

  async function round(): Promise<void> {
    const answer = await sqs.send(
      new ReceiveMessageCommand({
        QueueUrl: queueUrl,
        MaxNumberOfMessages: 10,
        WaitTimeSeconds: options.waitTimeSeconds ?? 20,
        // Carried over unchanged when a message is moved to the DLQ.
        MessageAttributeNames: ["All"],
      }),
      { abortSignal: abort.signal },
    );
    if (failing) {
      failing = false;
      options.onRecovered?.();
    }
    const done = await options.handle(answer.Messages ?? []);
    if (done.length) {
      const Entries = done.map((m, i) => ({ Id: String(i), ReceiptHandle: m.ReceiptHandle! }));
      await sqs.send(new DeleteMessageBatchCommand({ QueueUrl: queueUrl, Entries }));
    }
  }

  const loop = (async () => {
    while (!abort.signal.aborted) {
      try {
        await round();
      } catch (err) {
        if (abort.signal.aborted) break;
        failing = true;
        options.onError(err);
        await new Promise((resolve) => setTimeout(resolve, 1_000));
      }
    }
  })();

  return {
    async stop() {
      abort.abort();
      await loop;
    },
  };
}
