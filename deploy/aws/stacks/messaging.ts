import { Duration, Stack, type StackProps } from "aws-cdk-lib";
import * as events from "aws-cdk-lib/aws-events";
import * as iam from "aws-cdk-lib/aws-iam";
import * as kms from "aws-cdk-lib/aws-kms";
import * as ses from "aws-cdk-lib/aws-ses";
import * as sqs from "aws-cdk-lib/aws-sqs";
import type { Construct } from "constructs";
import { type QueueDefinition, type StackDefinition, TARGET_RETRY } from "../../local/definition.ts";

export interface MessagingStackProps extends StackProps {
  definition: StackDefinition;
  dataKey: kms.IKey;
}

export { TARGET_RETRY };

/** An EventBridge target into a queue, with a DLQ and a retry policy (shared with the partner stack). */
export function queueTarget(queue: sqs.IQueue, dlq: sqs.IQueue) {
  return {
    id: "queue",
    arn: queue.queueArn,
    deadLetterConfig: { arn: dlq.queueArn },
    retryPolicy: {
      maximumRetryAttempts: TARGET_RETRY.attempts,
      maximumEventAgeInSeconds: TARGET_RETRY.maxEventAgeSeconds,
    },
  };
}

/** Lets exactly these rules send to the queue (the bootstrap's `allowRulePolicy`, as CloudFormation). */
export function allowRules(queue: sqs.Queue, ruleArns: string[]): void {
  queue.addToResourcePolicy(
    new iam.PolicyStatement({
      sid: "AllowEventBridgeRule",
      principals: [new iam.ServicePrincipal("events.amazonaws.com")],
      actions: ["sqs:SendMessage"],
      resources: [queue.queueArn],
      conditions: { ArnEquals: { "aws:SourceArn": ruleArns } },
    }),
  );
}

/**
 * The domain bus and, per consuming service of the catalog, its rule, queue and DLQ, from the
 * definition the local bootstrap applies (deploy/local/definition.ts); the SES sender identity.
 * A delivery EventBridge cannot make lands in the consumer's own DLQ, which the alarms watch and
 * the redrive runbook empties.
 */
export class MessagingStack extends Stack {
  readonly bus: events.CfnEventBus;
  readonly queues = new Map<string, { queue: sqs.Queue; dlq: sqs.Queue; rule: events.CfnRule }>();

  constructor(scope: Construct, id: string, props: MessagingStackProps) {
    super(scope, id, props);
    const def = props.definition;
    // Imported by ARN: a grant then lands in the grantee's own policy, not in the key's (no cycle between stacks).
    const dataKey = kms.Key.fromKeyArn(this, "DataKey", props.dataKey.keyArn);
    this.bus = new events.CfnEventBus(this, "DomainBus", { name: def.busName });
    for (const q of def.queues) this.queues.set(q.service, this.consumer(q, dataKey));
    new ses.EmailIdentity(this, "MailFrom", { identity: ses.Identity.email(def.mailFrom) });
  }

  private consumer(q: QueueDefinition, key: kms.IKey) {
    const encryption = { encryption: sqs.QueueEncryption.KMS, encryptionMasterKey: key, enforceSSL: true };
    const dlq = new sqs.Queue(this, `Dlq-${q.service}`, {
      queueName: q.dlqName,
      retentionPeriod: Duration.seconds(q.dlqRetentionSeconds),
      ...encryption,
    });
    const queue = new sqs.Queue(this, `Queue-${q.service}`, {
      queueName: q.queueName,
      receiveMessageWaitTime: Duration.seconds(q.receiveWaitSeconds),
      visibilityTimeout: Duration.seconds(q.visibilityTimeoutSeconds),
      retentionPeriod: Duration.seconds(q.retentionSeconds),
      deadLetterQueue: { queue: dlq, maxReceiveCount: q.maxReceiveCount },
      ...encryption,
    });
    const rule = new events.CfnRule(this, `Rule-${q.service}`, {
      name: q.ruleName,
      eventBusName: this.bus.attrName,
      description: `Domain events consumed by ${q.service}`,
      eventPattern: q.eventPattern,
      state: "ENABLED",
      targets: [queueTarget(queue, dlq)],
    });
    allowRules(queue, [rule.attrArn]);
    allowRules(dlq, [rule.attrArn]);
    return { queue, dlq, rule };
  }
}
