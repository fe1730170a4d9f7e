import { GetQueueAttributesCommand, GetQueueUrlCommand, type SQSClient } from "@aws-sdk/client-sqs";

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
    if (!url) {
      const res = await sqs.send(
        new GetQueueAttributesCommand({ QueueUrl: queueUrl, AttributeNames: ["RedrivePolicy"] }),
      );
      const arn = JSON.parse(res.Attributes?.RedrivePolicy ?? "{}").deadLetterTargetArn as string | undefined;
      if (!arn) throw new Error("the queue has no RedrivePolicy, so there is no DLQ to measure");
      const [, , , , accountId, name] = arn.split(":");
      url = (await sqs.send(new GetQueueUrlCommand({ QueueName: name, QueueOwnerAWSAccountId: accountId }))).QueueUrl;
    }
    const res = await sqs.send(
      new GetQueueAttributesCommand({ QueueUrl: url, AttributeNames: ["ApproximateNumberOfMessages"] }),
    );
    cached = { at: Date.now(), value: Number(res.Attributes?.ApproximateNumberOfMessages ?? 0) };
    return cached.value;
  };
}
