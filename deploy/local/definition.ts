import { keyPairs } from "@flowstate/contracts/internal/key-pairs";
import type { AwsClientName, FlowstateServiceName } from "@flowstate/contracts/services/catalog";
import { keyPairSecretName } from "@flowstate/shared/boot/keyring-loader";
import { derivedNames, queueNames, sessionKeySecretId, withDerivedDefaults } from "@flowstate/shared/config/base";
import { type ConsumerDefinition, consumers } from "./consumers.ts";

export type { ConsumerDefinition } from "./consumers.ts";

/**
 * The one declarative definition of Flowstate's own AWS infrastructure (eu-central-1). The
 * bootstrap (`bootstrap.ts`) applies it idempotently to whatever endpoint is configured: moto
 * locally, LocalStack under docker-compose, real AWS in production. Nothing here is emulator-only.
 */

/**
 * The AWS clients the bootstrap builds (it creates the bus, queues, buckets, key, secrets, mail
 * identity and the partner-ingest side); its client factory refuses any other, and the residency
 * manifest lists the bootstrap ("deploy") as their user.
 */
export const BOOTSTRAP_CLIENTS = [
  "eventbridge",
  "kms",
  "s3",
  "secretsmanager",
  "sesv2",
  "sqs",
  "sts",
  "partner-eventbridge",
  "partner-sqs",
] as const satisfies readonly AwsClientName[];

export interface StackSettings {
  prefix: string;
  stage: string;
  /** The AWS account the stack lives in; part of bucket names, which are global on AWS. */
  accountId: string;
  /** The SES v2 sender identity for outgoing mail. */
  mailFrom: string;
}

export interface QueueDefinition {
  service: string;
  queueName: string;
  dlqName: string;
  maxReceiveCount: number;
  ruleName: string;
  eventPattern: Record<string, unknown>;
  /** Long polling by default, so a consumer that forgets WaitTimeSeconds still does not busy-poll. */
  receiveWaitSeconds: number;
  visibilityTimeoutSeconds: number;
  retentionSeconds: number;
  /** Longer than the queue's own (SQS keeps a moved message's original enqueue time), at SQS's 14-day maximum. */
  dlqRetentionSeconds: number;
}

export type BucketRole = "exports" | "auditArchive" | "snapshots";

export interface BucketDefinition {
  role: BucketRole;
  name: string;
  versioned: boolean;
  /** Objects expire this many days after creation (S3 lifecycle); none when unset. */
  expireAfterDays?: number;
  /** Object Lock default retention; only settable on a bucket created with Object Lock. */
  objectLock?: { mode: "COMPLIANCE" | "GOVERNANCE"; days: number };
}

export interface SecretDefinition {
  name: string;
  description: string;
}

/** A random secret of one service's own (no other process may read it: the task roles grant `readers` only). */
export interface OwnedSecretDefinition extends SecretDefinition {
  readers: readonly FlowstateServiceName[];
}

/** One caller → callee key (ADR 0014): its secret holds `{current, previous?}`, derived from the master. */
export interface KeyPairSecretDefinition {
  pairId: string;
  name: string;
}

export interface StackDefinition {
  busName: string;
  keyAlias: string;
  queues: QueueDefinition[];
  buckets: BucketDefinition[];
  /** Secrets every service may read (today the one shared assertion key, until nothing reads it). */
  secrets: OwnedSecretDefinition[];
  /**
   * The master the pair keys are derived from: read by the bootstrap and `npm run keys:rotate`
   * only, never by a service (no task role may read it).
   */
  keyMaster: SecretDefinition;
  /** One secret per key pair of the registries (contracts/src/internal/key-pairs.ts). */
  keyPairs: KeyPairSecretDefinition[];
  mailFrom: string;
}

/** Every envelope carries `source: "flowstate.<service>"` (contracts/src/events/envelope.ts). */
const EVERY_EVENT = { source: [{ prefix: "flowstate." }] };

/**
 * The outbox relay puts the envelope itself in the EventBridge `Detail`, so a rule matches on
 * `detail.type`: it holds whatever `DetailType` the relay chooses, and every version of a type.
 */
export function eventPattern(events: ConsumerDefinition["events"]): Record<string, unknown> {
  if (events === "all") return EVERY_EVENT;
  return { ...EVERY_EVENT, detail: { type: [...new Set(events)].sort() } };
}

/** How long the exports bucket keeps a finished export (decisions.md: 410 EXPORT_EXPIRED after 7 days). */
export const EXPORT_RETENTION_DAYS = 7;
/** Audit records are kept seven years, write-once (2555 days = 7 × 365). */
export const AUDIT_RETENTION_DAYS = 2555;
export const MAX_RECEIVE_COUNT = 5;
/**
 * How EventBridge retries a delivery into a consumer queue before it puts the event in the target's
 * DLQ (the consumer's own): 185 attempts over at most 24 h, the service's maximum. Without a DLQ on
 * the target, an event EventBridge cannot deliver (a queue policy gone wrong, the queue deleted, KMS
 * refusing) is dropped after the retries with nothing left to redrive.
 */
export const TARGET_RETRY = { attempts: 185, maxEventAgeSeconds: 24 * 3600 } as const;
/** Queue settings every consumer queue gets (the bootstrap and deploy/aws render the same numbers). */
export const QUEUE_SETTINGS = {
  receiveWaitSeconds: 20,
  visibilityTimeoutSeconds: 30,
  retentionSeconds: 4 * 24 * 3600,
  dlqRetentionSeconds: 14 * 24 * 3600,
} as const;

/** Names shared with the services' configuration defaults (shared/src/config/base.ts). */
export function stackNames(s: Pick<StackSettings, "prefix" | "stage">) {
  const env = withDerivedDefaults({ SERVICE_PREFIX: s.prefix, STAGE: s.stage });
  return {
    busName: env.EVENT_BUS_NAME,
    keyAlias: `alias/${s.prefix}-${s.stage}-data`,
    queues: (service: string) => queueNames(env, service),
    signInThrottleSecretId: derivedNames(env).signInThrottleSecretId,
  };
}

/** Bucket names are global across all AWS accounts, so the account id makes them ours. */
export function bucketName(s: Pick<StackSettings, "prefix" | "stage" | "accountId">, role: BucketRole): string {
  const suffix = { exports: "exports", auditArchive: "audit-archive", snapshots: "snapshots" }[role];
  return `${s.prefix}-${s.stage}-${s.accountId}-${suffix}`;
}

/**
 * Resolves the definition for one prefix, stage and account.
 *
 * @example
 * const def = defineStack({ prefix: "flowstate", stage: "dev", accountId: "123456789012", mailFrom: "no-reply@flowstate.local" });
 * def.queues.find((q) => q.service === "audit-svc")?.queueName; // "flowstate-dev-audit-svc"
 */
export function defineStack(
  s: StackSettings,
  consumerList: readonly ConsumerDefinition[] = consumers,
): StackDefinition {
  const names = stackNames(s);
  return {
    busName: names.busName,
    keyAlias: names.keyAlias,
    queues: consumerList.map((c) => ({
      service: c.service,
      queueName: names.queues(c.service).queue,
      dlqName: names.queues(c.service).dlq,
      maxReceiveCount: MAX_RECEIVE_COUNT,
      ruleName: names.queues(c.service).queue,
      eventPattern: eventPattern(c.events),
      ...QUEUE_SETTINGS,
    })),
    buckets: [
      { role: "exports", name: bucketName(s, "exports"), versioned: false, expireAfterDays: EXPORT_RETENTION_DAYS },
      {
        role: "auditArchive",
        name: bucketName(s, "auditArchive"),
        versioned: true,
        objectLock: { mode: "COMPLIANCE", days: AUDIT_RETENTION_DAYS },
      },
      { role: "snapshots", name: bucketName(s, "snapshots"), versioned: true },
    ],
    // identity-svc creates and rotates its own signing keys; the assertion keys are the pairs below
    // (there is no shared key, ADR 0014). What remains: random secrets of one service each.
    secrets: [
      {
        name: names.signInThrottleSecretId,
        description: "identity-svc's key of the sign-in throttle rows (HMAC of the address, never the address)",
        readers: ["identity-svc"],
      },
      {
        name: sessionKeySecretId({ SERVICE_PREFIX: s.prefix, STAGE: s.stage }),
        description: "Key sealing the seller console's session tokens at rest (web-console, ADR 0015)",
        readers: ["web-console"],
      },
    ],
    keyMaster: {
      name: `${s.prefix}/${s.stage}/keys-master`,
      description: "Master of the per-pair assertion keys (ADR 0014); read by the bootstrap and the rotation only",
    },
    keyPairs: keyPairs.map((p) => ({ pairId: p.id, name: keyPairSecretName(s.prefix, s.stage, p.id) })),
    mailFrom: s.mailFrom,
  };
}
