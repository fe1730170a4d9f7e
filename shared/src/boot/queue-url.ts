import { GetQueueUrlCommand, type SQSClient } from "@aws-sdk/client-sqs";

/**
 * The URL of a queue the bootstrap created, by name (`queueNames(config, service).queue`). A queue
 * that does not exist rejects with SQS's QueueDoesNotExist, so a service never starts polling
 * nothing.
 *
 * @example
 * const queueUrl = await queueUrlOf(aws.data("sqs"), queueNames(config, "partner-inbound").queue);
 */
export async function queueUrlOf(sqs: SQSClient, queueName: string): Promise<string> {
  const { QueueUrl } = await sqs.send(new GetQueueUrlCommand({ QueueName: queueName }));
  if (!QueueUrl) throw new Error(`queue ${queueName} has no URL`);
  return QueueUrl;
}
