import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { DescribeRuleCommand, ListTargetsByRuleCommand, PutEventsCommand } from "@aws-sdk/client-eventbridge";
import { DescribeKeyCommand } from "@aws-sdk/client-kms";
import {
  DeleteObjectCommand,
  GetBucketEncryptionCommand,
  GetBucketLifecycleConfigurationCommand,
  GetBucketVersioningCommand,
  GetObjectCommand,
  GetObjectLockConfigurationCommand,
  GetPublicAccessBlockCommand,
  PutObjectCommand,
} from "@aws-sdk/client-s3";
import { GetSecretValueCommand } from "@aws-sdk/client-secrets-manager";
import { GetEmailIdentityCommand } from "@aws-sdk/client-sesv2";
import { GetQueueAttributesCommand, ReceiveMessageCommand } from "@aws-sdk/client-sqs";
import { createAwsClients } from "@flowstate/shared/aws/clients";
import { beforeAll, describe, test } from "vitest";
import { bootstrap, type StackOutputs } from "./bootstrap.ts";
import { consumers } from "./consumers.ts";
import { TARGET_RETRY } from "./definition.ts";

const aws = createAwsClients({ endpoint: process.env.AWS_ENDPOINT_URL });
// A prefix of its own, so this test never meets another test's (or `npm start`'s) resources.
const prefix = `bt${randomBytes(4).toString("hex")}`;
const options = { aws, prefix, stage: "dev", mailFrom: `no-reply@${prefix}.flowstate.local` };

describe("the local stack bootstrap", () => {
  let outputs: StackOutputs;
  let secondRun: string[];
  let secretBefore: string | undefined;

  beforeAll(async () => {
    const first = await bootstrap(options);
    assert.ok(first.changes.length > 0);
    outputs = first.outputs;
    const secretId = `${prefix}/dev/identity/sign-in-throttle-key`;
    secretBefore = (await aws.data("secretsmanager").send(new GetSecretValueCommand({ SecretId: secretId })))
      .SecretString;
    secondRun = (await bootstrap(options)).changes;
  });

  test("a second run against an up-to-date stack changes nothing", () => {
    assert.deepEqual(secondRun, []);
  });

  test("identity-svc's throttle key is a random 256-bit secret that a second run does not overwrite; there is no shared key", async () => {
    const secretId = `${prefix}/dev/identity/sign-in-throttle-key`;
    await assert.rejects(
      aws.data("secretsmanager").send(new GetSecretValueCommand({ SecretId: `${prefix}/dev/internal-auth-key` })),
      { name: "ResourceNotFoundException" },
    );
    const now = await aws.data("secretsmanager").send(new GetSecretValueCommand({ SecretId: secretId }));
    assert.equal(Buffer.from(now.SecretString!, "base64url").length, 32);
    assert.equal(now.SecretString, secretBefore);
  });

  test("the exports bucket is unversioned, SSE-KMS with the data key, expires objects after 7 days and blocks public access", async () => {
    const s3 = aws.data("s3");
    const Bucket = outputs.buckets.exports;
    assert.match(Bucket, new RegExp(`^${prefix}-dev-\\d{12}-exports$`));
    const versioning = await s3.send(new GetBucketVersioningCommand({ Bucket }));
    assert.notEqual(versioning.Status, "Enabled");
    const sse = await s3.send(new GetBucketEncryptionCommand({ Bucket }));
    const byDefault = sse.ServerSideEncryptionConfiguration?.Rules?.[0]?.ApplyServerSideEncryptionByDefault;
    assert.equal(byDefault?.SSEAlgorithm, "aws:kms");
    assert.equal(byDefault?.KMSMasterKeyID, outputs.keyArn);
    const lifecycle = await s3.send(new GetBucketLifecycleConfigurationCommand({ Bucket }));
    assert.equal(lifecycle.Rules?.length, 1);
    assert.equal(lifecycle.Rules?.[0]?.Status, "Enabled");
    assert.equal(lifecycle.Rules?.[0]?.Expiration?.Days, 7);
    const block = await s3.send(new GetPublicAccessBlockCommand({ Bucket }));
    assert.deepEqual(block.PublicAccessBlockConfiguration, {
      BlockPublicAcls: true,
      IgnorePublicAcls: true,
      BlockPublicPolicy: true,
      RestrictPublicBuckets: true,
    });
  });

  test("the exports bucket takes and serves an SSE-KMS object over the emulator's plain HTTP (no TLS-only policy there)", async () => {
    const s3 = aws.data("s3");
    const Bucket = outputs.buckets.exports;
    await s3.send(
      new PutObjectCommand({
        Bucket,
        Key: "probe.zip",
        Body: "x",
        ServerSideEncryption: "aws:kms",
        SSEKMSKeyId: outputs.keyAlias,
      }),
    );
    const got = await s3.send(new GetObjectCommand({ Bucket, Key: "probe.zip" }));
    assert.equal(await got.Body?.transformToString(), "x");
    await s3.send(new DeleteObjectCommand({ Bucket, Key: "probe.zip" }));
  });

  test("the audit archive has Object Lock with a COMPLIANCE default retention of 2555 days", async () => {
    const lock = await aws
      .data("s3")
      .send(new GetObjectLockConfigurationCommand({ Bucket: outputs.buckets.auditArchive }));
    assert.equal(lock.ObjectLockConfiguration?.ObjectLockEnabled, "Enabled");
    assert.equal(lock.ObjectLockConfiguration?.Rule?.DefaultRetention?.Mode, "COMPLIANCE");
    assert.equal(lock.ObjectLockConfiguration?.Rule?.DefaultRetention?.Days, 2555);
  });

  test("the snapshots bucket is versioned and encrypted with the data key", async () => {
    const s3 = aws.data("s3");
    const Bucket = outputs.buckets.snapshots;
    assert.equal((await s3.send(new GetBucketVersioningCommand({ Bucket }))).Status, "Enabled");
    const sse = await s3.send(new GetBucketEncryptionCommand({ Bucket }));
    assert.equal(
      sse.ServerSideEncryptionConfiguration?.Rules?.[0]?.ApplyServerSideEncryptionByDefault?.KMSMasterKeyID,
      outputs.keyArn,
    );
  });

  test("the data key answers to its alias", async () => {
    const key = await aws.data("kms").send(new DescribeKeyCommand({ KeyId: `alias/${prefix}-dev-data` }));
    assert.equal(key.KeyMetadata?.Arn, outputs.keyArn);
  });

  test("gives a queue to each declared consumer and to nothing else", () => {
    assert.deepEqual(Object.keys(outputs.queues).sort(), consumers.map((c) => c.service).sort());
  });

  test("every consumer queue dead-letters after 5 receives and accepts messages only from its rule", async () => {
    const sqs = aws.data("sqs");
    for (const { service } of consumers) {
      const q = outputs.queues[service]!;
      assert.ok(q.url.endsWith(`/${prefix}-dev-${service}`));
      assert.ok(q.dlqUrl.endsWith(`/${prefix}-dev-${service}-dlq`));
      const { Attributes } = await sqs.send(
        new GetQueueAttributesCommand({ QueueUrl: q.url, AttributeNames: ["All"] }),
      );
      const redrive = JSON.parse(Attributes!.RedrivePolicy!);
      assert.equal(redrive.deadLetterTargetArn, q.dlqArn);
      assert.equal(Number(redrive.maxReceiveCount), 5);
      const policy = JSON.parse(Attributes!.Policy!);
      assert.equal(policy.Statement[0].Principal.Service, "events.amazonaws.com");
      assert.equal(policy.Statement[0].Condition.ArnEquals["aws:SourceArn"], q.ruleArn);
    }
  });

  test("each consumer's rule on the domain bus targets its queue with the events it subscribes to", async () => {
    const eb = aws.data("eventbridge");
    const bus = `${prefix}-dev-domain`;
    const rule = await eb.send(new DescribeRuleCommand({ Name: `${prefix}-dev-partner-svc`, EventBusName: bus }));
    assert.equal(rule.State, "ENABLED");
    assert.deepEqual(JSON.parse(rule.EventPattern!).detail.type, ["PartnerEventReceived", "TenantSoftDeleted"]);
    const targets = await eb.send(
      new ListTargetsByRuleCommand({ Rule: `${prefix}-dev-partner-svc`, EventBusName: bus }),
    );
    assert.deepEqual(
      targets.Targets?.map((t) => t.Arn),
      [outputs.queues["partner-svc"]!.arn],
    );
  });

  test("every rule's target has a DLQ the rule may send to and an explicit retry policy; every DLQ outlives its queue (§7 check 21)", async () => {
    const eb = aws.data("eventbridge");
    const sqs = aws.data("sqs");
    for (const [service, q] of Object.entries(outputs.queues)) {
      const { Targets = [] } = await eb.send(
        new ListTargetsByRuleCommand({ Rule: `${prefix}-dev-${service}`, EventBusName: `${prefix}-dev-domain` }),
      );
      assert.equal(Targets.length, 1, service);
      assert.equal(Targets[0]!.DeadLetterConfig?.Arn, q.dlqArn, `${service}: the target dead-letters into its DLQ`);
      assert.deepEqual(
        Targets[0]!.RetryPolicy,
        { MaximumRetryAttempts: TARGET_RETRY.attempts, MaximumEventAgeInSeconds: TARGET_RETRY.maxEventAgeSeconds },
        service,
      );
      const attributes = async (url: string) =>
        (await sqs.send(new GetQueueAttributesCommand({ QueueUrl: url, AttributeNames: ["All"] }))).Attributes!;
      const [queue, dlq] = await Promise.all([attributes(q.url), attributes(q.dlqUrl)]);
      assert.ok(
        Number(dlq.MessageRetentionPeriod) > Number(queue.MessageRetentionPeriod),
        `${service}: a dead letter must outlive the queue's own retention`,
      );
      const policy = JSON.parse(dlq.Policy!);
      assert.equal(policy.Statement[0].Condition.ArnEquals["aws:SourceArn"], q.ruleArn, `${service}: DLQ policy`);
    }
  });

  test("an event published to the bus reaches exactly the consumers subscribed to its type", async () => {
    const envelope = {
      id: `evt_${randomBytes(8).toString("hex")}`,
      type: "AccessRevoked",
      version: 1,
      source: "flowstate.identity-svc",
      data: {},
    };
    const put = await aws.data("eventbridge").send(
      new PutEventsCommand({
        Entries: [
          {
            EventBusName: outputs.busName,
            Source: envelope.source,
            DetailType: "AccessRevoked",
            Detail: JSON.stringify(envelope),
          },
        ],
      }),
    );
    assert.equal(put.FailedEntryCount, 0);
    const sqs = aws.data("sqs");
    const receive = (service: string, wait: number) =>
      sqs.send(
        new ReceiveMessageCommand({
          QueueUrl: outputs.queues[service]!.url,
          WaitTimeSeconds: wait,
          MaxNumberOfMessages: 10,
        }),
      );
    const got = await receive("edge-gateway", 5);
    assert.equal(got.Messages?.length, 1, "edge-gateway receives the event");
    assert.equal(JSON.parse(got.Messages![0]!.Body!).detail.id, envelope.id);
    const partner = await receive("partner-svc", 0);
    assert.equal(partner.Messages?.length ?? 0, 0);
  });

  test("the partner ingest lives in us-east-1: shard buses whose rules feed one queue with a DLQ", async () => {
    const { partner } = outputs;
    assert.deepEqual(
      partner.buses.map((b) => b.name),
      [`${prefix}-dev-partner-0`, `${prefix}-dev-partner-1`],
    );
    for (const bus of partner.buses) assert.match(bus.arn, /^arn:aws:events:us-east-1:\d{12}:event-bus\//);
    assert.match(partner.queueArn, /^arn:aws:sqs:us-east-1:\d{12}:.*-dev-partner-inbound$/);
    const { Attributes } = await aws
      .partner("partner-sqs")
      .send(new GetQueueAttributesCommand({ QueueUrl: partner.queueUrl, AttributeNames: ["All"] }));
    assert.equal(Attributes?.MessageRetentionPeriod, String(24 * 3600));
    assert.match(
      JSON.parse(Attributes!.RedrivePolicy!).deadLetterTargetArn,
      /^arn:aws:sqs:us-east-1:.*-partner-inbound-dlq$/,
    );
    const senders = JSON.parse(Attributes!.Policy!).Statement[0].Condition.ArnEquals["aws:SourceArn"];
    assert.equal(senders.length, 2);
  });

  test("the SES sender identity exists", async () => {
    const identity = await aws.data("sesv2").send(new GetEmailIdentityCommand({ EmailIdentity: options.mailFrom }));
    assert.equal(identity.IdentityType, "EMAIL_ADDRESS");
  });
});
