import { GetQueueAttributesCommand, type SQSClient } from "@aws-sdk/client-sqs";
import { dlqUrlOf } from "./dead-letter.ts";

/**
 * Reads a DLQ's ApproximateNumberOfMessages, at most once per `cacheMs` (a /metrics scrape every
 * few seconds must not turn into as many AWS calls). The DLQ is found from the queue's
 * RedrivePolicy when its URL is not given.
 */
export function dlqDepthReader(sqs: SQSClient, queueUrl: string, dlqUrl: string | undefined, cacheMs = 30_000) {
  let url = dlqUrl;
  let cached: { at: number; value: number } | undefined;
  return async (): Promise<number> => {
    if (cached && Date.now() - cached.at < cacheMs) return cached.value;
    url ??= await dlqUrlOf(sqs, queueUrl);
    const res = await sqs.send(
      new GetQueueAttributesCommand({ QueueUrl: url, AttributeNames: ["ApproximateNumberOfMessages"] }),
    );
    cached = { at: Date.now(), value: Number(res.Attributes?.ApproximateNumberOfMessages ?? 0) };
    return cached.value;
  };
}
