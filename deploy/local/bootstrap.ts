/**
 * Applies the stack definition (`definition.ts`) to the configured AWS endpoint, idempotently: a
 * second run against an up-to-date stack reports no change. Run alone with
 * `node deploy/local/bootstrap.ts` (moto or LocalStack via AWS_ENDPOINT_URL; real AWS without it).
 */
import { GetCallerIdentityCommand } from "@aws-sdk/client-sts";
import { type AwsClients, createAwsClients, DATA_REGION } from "@flowstate/shared/aws/clients";
import { ensureBucket } from "./apply/buckets.ts";
import type { ApplyContext } from "./apply/common.ts";
import { ensureBus, ensureQueueTarget, ensureRule } from "./apply/events.ts";
import { ensureKeyPairs } from "./apply/key-pairs.ts";
import { ensureDataKey } from "./apply/kms.ts";
import { ensurePartnerIngest, type PartnerIngestOutputs } from "./apply/partner.ts";
import { allowRulePolicy, ensureQueue } from "./apply/queues.ts";
import { ensureSecret } from "./apply/secrets.ts";
import { ensureEmailIdentity } from "./apply/ses.ts";
import { consumers } from "./consumers.ts";
import {
  BOOTSTRAP_CLIENTS,
  type BucketRole,
  type ConsumerDefinition,
  defineStack,
  type QueueDefinition,
} from "./definition.ts";
import { definePartnerIngest } from "./partner-definition.ts";
import { readStackSettings } from "./settings.ts";

export interface ConsumerQueue {
  url: string;
  arn: string;
  dlqUrl: string;
  dlqArn: string;
  ruleArn: string;
}

export interface StackOutputs {
  accountId: string;
  busName: string;
  busArn: string;
  keyAlias: string;
  keyArn: string;
  queues: Record<string, ConsumerQueue>;
  buckets: Record<BucketRole, string>;
  /** Secret name → ARN. */
  secrets: Record<string, string>;
  /** Key pair id (`partner-inbound--connector-svc`) → its secret's ARN (ADR 0014). */
  keyPairs: Record<string, string>;
  mailFrom: string;
  /** The us-east-1 partner-program ingest (partner-definition.ts). */
  partner: PartnerIngestOutputs;
}

export interface BootstrapOptions {
  aws: AwsClients;
  prefix: string;
  stage: string;
  mailFrom: string;
  /** Defaults to the project's consumer list; tests may pass their own. */
  consumers?: readonly ConsumerDefinition[];
}

/**
 * @example
 * const { outputs, changes } = await bootstrap({ aws: createAwsClients({ endpoint }), prefix: "flowstate", stage: "dev", mailFrom: "no-reply@flowstate.local" });
 * outputs.queues["audit-svc"].url; // the consumer's queue URL
 */
export async function bootstrap(options: BootstrapOptions): Promise<{ outputs: StackOutputs; changes: string[] }> {
  const ctx: ApplyContext = { aws: options.aws, changes: [] };
  const identity = await options.aws.data("sts").send(new GetCallerIdentityCommand({}));
  const accountId = identity.Account!;
  const def = defineStack(
    { prefix: options.prefix, stage: options.stage, accountId, mailFrom: options.mailFrom },
    options.consumers ?? consumers,
  );

  const [keyArn, busArn] = await Promise.all([ensureDataKey(ctx, def.keyAlias), ensureBus(ctx, def.busName)]);
  const [, queueList, secretArns, keyPairArns, , partner] = await Promise.all([
    Promise.all(def.buckets.map((b) => ensureBucket(ctx, b, keyArn))),
    Promise.all(def.queues.map((q) => ensureConsumerQueue(ctx, def.busName, accountId, q))),
    Promise.all(def.secrets.map((s) => ensureSecret(ctx, s, keyArn))),
    ensureKeyPairs(ctx, def.keyMaster, def.keyPairs, keyArn),
    ensureEmailIdentity(ctx, def.mailFrom),
    ensurePartnerIngest(ctx, accountId, definePartnerIngest(options)),
  ]);

  const outputs: StackOutputs = {
    accountId,
    busName: def.busName,
    busArn,
    keyAlias: def.keyAlias,
    keyArn,
    queues: Object.fromEntries(def.queues.map((q, i) => [q.service, queueList[i]!])),
    buckets: Object.fromEntries(def.buckets.map((b) => [b.role, b.name])) as Record<BucketRole, string>,
    secrets: Object.fromEntries(def.secrets.map((s, i) => [s.name, secretArns[i]!])),
    keyPairs: keyPairArns,
    mailFrom: def.mailFrom,
    partner,
  };
  return { outputs, changes: ctx.changes.sort() };
}

/**
 * The rule first (both queue policies name it), then the DLQ (the redrive policy and the target
 * name it; the rule may send to it, for what EventBridge cannot deliver), then the queue and the
 * target with its DLQ and retry policy.
 */
async function ensureConsumerQueue(
  ctx: ApplyContext,
  bus: string,
  accountId: string,
  q: QueueDefinition,
): Promise<ConsumerQueue> {
  const ruleArn = await ensureRule(ctx, {
    bus,
    name: q.ruleName,
    pattern: q.eventPattern,
    description: `Domain events consumed by ${q.service}`,
  });
  const dlqArn = `arn:aws:sqs:${DATA_REGION}:${accountId}:${q.dlqName}`;
  const dlq = await ensureQueue(ctx, q.dlqName, {
    MessageRetentionPeriod: String(q.dlqRetentionSeconds),
    Policy: allowRulePolicy(dlqArn, ruleArn),
  });
  const queueArn = `arn:aws:sqs:${DATA_REGION}:${accountId}:${q.queueName}`;
  const queue = await ensureQueue(ctx, q.queueName, {
    ReceiveMessageWaitTimeSeconds: String(q.receiveWaitSeconds),
    VisibilityTimeout: String(q.visibilityTimeoutSeconds),
    MessageRetentionPeriod: String(q.retentionSeconds),
    RedrivePolicy: JSON.stringify({ deadLetterTargetArn: dlq.arn, maxReceiveCount: q.maxReceiveCount }),
    Policy: allowRulePolicy(queueArn, ruleArn),
  });
  await ensureQueueTarget(ctx, bus, q.ruleName, queue.arn, dlq.arn);
  return { url: queue.url, arn: queue.arn, dlqUrl: dlq.url, dlqArn: dlq.arn, ruleArn };
}

if (import.meta.main) {
  const settings = readStackSettings();
  const aws = createAwsClients({ endpoint: settings.endpoint, allowed: BOOTSTRAP_CLIENTS });
  const { outputs, changes } = await bootstrap({ aws, ...settings });
  for (const change of changes) console.log(`  ${change}`);
  console.log(changes.length ? `bootstrap: ${changes.length} change(s) applied` : "bootstrap: everything up to date");
  console.log(JSON.stringify(outputs, null, 2));
}
