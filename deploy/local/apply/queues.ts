import {
  CreateQueueCommand,
  GetQueueAttributesCommand,
  GetQueueUrlCommand,
  SetQueueAttributesCommand,
} from "@aws-sdk/client-sqs";
import { type ApplyContext, isAwsError, sameJson, sqsOf } from "./common.ts";

export interface EnsuredQueue {
  url: string;
  arn: string;
}

/**
 * Ensures a standard queue exists with at least these attributes and returns its URL and ARN.
 * Attributes are compared by meaning (JSON policies re-serialised by SQS) and only the differing
 * ones are set, so a second run changes nothing.
 */
export async function ensureQueue(
  ctx: ApplyContext,
  name: string,
  attributes: Record<string, string>,
): Promise<EnsuredQueue> {
  const sqs = sqsOf(ctx);
  let url: string | undefined;
  try {
    url = (await sqs.send(new GetQueueUrlCommand({ QueueName: name }))).QueueUrl;
  } catch (err) {
    if (!isAwsError(err, ["QueueDoesNotExist", "AWS.SimpleQueueService.NonExistentQueue"])) throw err;
  }
  if (!url) {
    url = (await sqs.send(new CreateQueueCommand({ QueueName: name, Attributes: attributes }))).QueueUrl!;
    ctx.changes.push(`created queue ${name}`);
  }
  const { Attributes: current = {} } = await sqs.send(
    new GetQueueAttributesCommand({ QueueUrl: url, AttributeNames: ["All"] }),
  );
  const differing = Object.fromEntries(
    Object.entries(attributes).filter(([key, value]) => !sameJson(current[key as keyof typeof current], value)),
  );
  if (Object.keys(differing).length) {
    await sqs.send(new SetQueueAttributesCommand({ QueueUrl: url, Attributes: differing }));
    ctx.changes.push(`set ${Object.keys(differing).sort().join(", ")} of queue ${name}`);
  }
  return { url, arn: current.QueueArn! };
}

/** Lets exactly these EventBridge rules (one, or one per partner shard bus) send to the queue (the confused-deputy guard is `aws:SourceArn`). */
export function allowRulePolicy(queueArn: string, ruleArn: string | readonly string[]): string {
  return JSON.stringify({
    Version: "2012-10-17",
    Statement: [
      {
        Sid: "AllowEventBridgeRule",
        Effect: "Allow",
        Principal: { Service: "events.amazonaws.com" },
        Action: "sqs:SendMessage",
        Resource: queueArn,
        Condition: { ArnEquals: { "aws:SourceArn": ruleArn } },
      },
    ],
  });
}
