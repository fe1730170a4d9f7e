import { PARTNER_REGION } from "@flowstate/shared/aws/clients";
import type { PartnerIngestDefinition } from "../partner-definition.ts";
import type { ApplyContext } from "./common.ts";
import { ensureBus, ensureQueueTarget, ensureRule } from "./events.ts";
import { allowRulePolicy, ensureQueue } from "./queues.ts";

export interface PartnerIngestOutputs {
  queueUrl: string;
  queueArn: string;
  dlqUrl: string;
  buses: { name: string; arn: string }[];
}

/**
 * Ensures the us-east-1 partner ingest: the shard buses and their rules, the DLQ, then the queue
 * (both policies name every rule) and each rule's target, dead-lettering into the DLQ. Bus policies are partner-inbound's to write.
 */
export async function ensurePartnerIngest(
  data: ApplyContext,
  accountId: string,
  def: PartnerIngestDefinition,
): Promise<PartnerIngestOutputs> {
  const ctx: ApplyContext = { ...data, side: "partner" };
  const retention = { MessageRetentionPeriod: String(def.retentionSeconds) };
  const buses = await Promise.all(def.buses.map(async (name) => ({ name, arn: await ensureBus(ctx, name) })));
  const ruleArns = await Promise.all(
    def.buses.map((bus) =>
      ensureRule(ctx, { bus, name: def.ruleName, pattern: def.eventPattern, description: "Partner Central events" }),
    ),
  );
  // The rules' targets dead-letter here too: what EventBridge cannot deliver is kept for redrive.
  const dlq = await ensureQueue(ctx, def.dlqName, {
    ...retention,
    Policy: allowRulePolicy(`arn:aws:sqs:${PARTNER_REGION}:${accountId}:${def.dlqName}`, ruleArns),
  });
  const queue = await ensureQueue(ctx, def.queueName, {
    ...retention,
    ReceiveMessageWaitTimeSeconds: String(def.receiveWaitSeconds),
    VisibilityTimeout: String(def.visibilityTimeoutSeconds),
    RedrivePolicy: JSON.stringify({ deadLetterTargetArn: dlq.arn, maxReceiveCount: def.maxReceiveCount }),
    Policy: allowRulePolicy(`arn:aws:sqs:${PARTNER_REGION}:${accountId}:${def.queueName}`, ruleArns),
  });
  await Promise.all(def.buses.map((bus) => ensureQueueTarget(ctx, bus, def.ruleName, queue.arn, dlq.arn)));
  return { queueUrl: queue.url, queueArn: queue.arn, dlqUrl: dlq.url, buses };
}
