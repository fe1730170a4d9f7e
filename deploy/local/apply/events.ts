import {
  CreateEventBusCommand,
  DescribeEventBusCommand,
  DescribeRuleCommand,
  ListTargetsByRuleCommand,
  PutRuleCommand,
  PutTargetsCommand,
} from "@aws-sdk/client-eventbridge";
import { TARGET_RETRY } from "../definition.ts";
import { type ApplyContext, eventBridgeOf, isAwsError, sameJson } from "./common.ts";

/** Ensures the custom event bus exists and returns its ARN. */
export async function ensureBus(ctx: ApplyContext, name: string): Promise<string> {
  const eb = eventBridgeOf(ctx);
  try {
    const bus = await eb.send(new DescribeEventBusCommand({ Name: name }));
    return bus.Arn!;
  } catch (err) {
    if (!isAwsError(err, ["ResourceNotFoundException"])) throw err;
  }
  try {
    const created = await eb.send(new CreateEventBusCommand({ Name: name }));
    ctx.changes.push(`created event bus ${name}`);
    return created.EventBusArn!;
  } catch (err) {
    if (!isAwsError(err, ["ResourceAlreadyExistsException"])) throw err;
    return (await eb.send(new DescribeEventBusCommand({ Name: name }))).Arn!;
  }
}

export interface RuleSpec {
  bus: string;
  name: string;
  pattern: Record<string, unknown>;
  description: string;
}

/**
 * Ensures the rule exists with this exact pattern, enabled, and returns its ARN. The ARN is known
 * before the target queue's policy is written, so the policy can name the rule as its only sender.
 */
export async function ensureRule(ctx: ApplyContext, spec: RuleSpec): Promise<string> {
  const eb = eventBridgeOf(ctx);
  try {
    const rule = await eb.send(new DescribeRuleCommand({ Name: spec.name, EventBusName: spec.bus }));
    if (rule.State === "ENABLED" && sameJson(rule.EventPattern, spec.pattern)) return rule.Arn!;
  } catch (err) {
    if (!isAwsError(err, ["ResourceNotFoundException"])) throw err;
  }
  const put = await eb.send(
    new PutRuleCommand({
      Name: spec.name,
      EventBusName: spec.bus,
      EventPattern: JSON.stringify(spec.pattern),
      State: "ENABLED",
      Description: spec.description,
    }),
  );
  ctx.changes.push(`put rule ${spec.name}`);
  return put.RuleArn!;
}

/**
 * Ensures the rule targets the queue under target id "sqs", with `dlq` as the target's dead-letter
 * queue and TARGET_RETRY as its retry policy (other targets, e.g. monitoring, are left alone). The
 * DLQ's policy must let the rule send to it (the caller's `allowRulePolicy`).
 */
export async function ensureQueueTarget(
  ctx: ApplyContext,
  bus: string,
  rule: string,
  queueArn: string,
  dlqArn: string,
): Promise<void> {
  const eb = eventBridgeOf(ctx);
  const target = {
    Id: "sqs",
    Arn: queueArn,
    DeadLetterConfig: { Arn: dlqArn },
    RetryPolicy: {
      MaximumRetryAttempts: TARGET_RETRY.attempts,
      MaximumEventAgeInSeconds: TARGET_RETRY.maxEventAgeSeconds,
    },
  };
  const { Targets = [] } = await eb.send(new ListTargetsByRuleCommand({ Rule: rule, EventBusName: bus }));
  const current = Targets.find((t) => t.Id === "sqs");
  if (
    current?.Arn === queueArn &&
    current.DeadLetterConfig?.Arn === dlqArn &&
    current.RetryPolicy?.MaximumRetryAttempts === TARGET_RETRY.attempts &&
    current.RetryPolicy?.MaximumEventAgeInSeconds === TARGET_RETRY.maxEventAgeSeconds
  )
    return;
  const put = await eb.send(new PutTargetsCommand({ Rule: rule, EventBusName: bus, Targets: [target] }));
  if (put.FailedEntryCount) throw new Error(`PutTargets failed for rule ${rule}: ${JSON.stringify(put.FailedEntries)}`);
  ctx.changes.push(`put target of rule ${rule}`);
}
