import assert from "node:assert/strict";
import { keyPairsOf } from "@flowstate/contracts/internal/key-pairs";
import { PairSecret } from "@flowstate/shared/auth/keyring";
import { createAwsClients } from "@flowstate/shared/aws/clients";
import { keyPairSecretName } from "@flowstate/shared/boot/keyring-loader";
import { describe, it } from "vitest";
import { MOTO_DEFAULT_ACCOUNT_ID } from "../connector-role/moto-account.ts";
import { bootstrap } from "../local/bootstrap.ts";
import { BOOTSTRAP_CLIENTS, defineStack } from "../local/definition.ts";
import { definePartnerIngest } from "../local/partner-definition.ts";
import { deployDataStacksIntoMoto } from "./moto-deploy.ts";
import { deployedServices } from "./services.ts";
import { type CfnJson, synthesize } from "./synth.ts";

const endpoint = process.env.AWS_ENDPOINT_URL;
if (!endpoint) throw new Error("AWS_ENDPOINT_URL is not set: run through scripts/test.ts");

// One synthesis for the file. The bootstrap's definition is the source; the CDK stacks must render
// it exactly. moto's account and a prefix of this file's own, so the stacks can also be deployed
// into the run's moto without meeting another test's resources.
const synth = synthesize({
  settings: { prefix: "cdkmoto", stage: "dev", account: MOTO_DEFAULT_ACCOUNT_ID, mailFrom: "no-reply@cdkmoto.example" },
});
const { built, settings, template } = synth;
const def = defineStack({
  prefix: settings.prefix,
  stage: settings.stage,
  accountId: settings.account,
  mailFrom: settings.mailFrom,
});
const partner = definePartnerIngest(settings);
type Resource = { Type: string; Properties: Record<string, CfnJson> };
const all = (stack: (typeof built.stacks)[number], type: string) =>
  Object.values(template(stack).toJSON().Resources as Record<string, Resource>).filter((r) => r.Type === type);

describe("the local bootstrap's definition and the CDK stacks", () => {
  it("have the same queues and DLQs with the same settings, and no other", () => {
    const queues = new Map(all(built.messaging, "AWS::SQS::Queue").map((q) => [q.Properties.QueueName, q.Properties]));
    assert.deepEqual([...queues.keys()].sort(), def.queues.flatMap((q) => [q.queueName, q.dlqName]).sort());
    for (const q of def.queues) {
      const queue = queues.get(q.queueName)!;
      assert.equal(queue.ReceiveMessageWaitTimeSeconds, q.receiveWaitSeconds);
      assert.equal(queue.VisibilityTimeout, q.visibilityTimeoutSeconds);
      assert.equal(queue.MessageRetentionPeriod, q.retentionSeconds);
      assert.equal(queue.RedrivePolicy.maxReceiveCount, q.maxReceiveCount);
      assert.equal(queues.get(q.dlqName)!.MessageRetentionPeriod, q.dlqRetentionSeconds);
    }
  });

  it("have the same bus and rules, each with the definition's event pattern", () => {
    assert.deepEqual(
      all(built.messaging, "AWS::Events::EventBus").map((b) => b.Properties.Name),
      [def.busName],
    );
    const rules = new Map(all(built.messaging, "AWS::Events::Rule").map((r) => [r.Properties.Name, r.Properties]));
    assert.deepEqual([...rules.keys()].sort(), def.queues.map((q) => q.ruleName).sort());
    for (const q of def.queues) assert.deepEqual(rules.get(q.ruleName)!.EventPattern, q.eventPattern, q.ruleName);
  });

  it("have the same buckets with the same rules, the same key alias and the same secrets", () => {
    const buckets = new Map(all(built.storage, "AWS::S3::Bucket").map((b) => [b.Properties.BucketName, b.Properties]));
    for (const b of def.buckets) {
      const bucket = buckets.get(b.name);
      assert.ok(bucket, b.name);
      assert.equal(bucket.VersioningConfiguration?.Status === "Enabled", b.versioned, `${b.name} versioning`);
      const expiry = bucket.LifecycleConfiguration?.Rules?.[0]?.ExpirationInDays;
      assert.equal(expiry, b.expireAfterDays, `${b.name} expiry`);
      const lock = bucket.ObjectLockConfiguration?.Rule?.DefaultRetention;
      assert.deepEqual(lock && { mode: lock.Mode, days: lock.Days }, b.objectLock, `${b.name} Object Lock`);
      assert.equal(
        bucket.BucketEncryption.ServerSideEncryptionConfiguration[0].ServerSideEncryptionByDefault.SSEAlgorithm,
        "aws:kms",
      );
    }
    // The only bucket the bootstrap does not make: production's access logs.
    assert.deepEqual(
      [...buckets.keys()].filter((n) => !def.buckets.some((b) => b.name === n)),
      [`${settings.prefix}-${settings.stage}-${settings.account}-access-logs`],
    );
    assert.deepEqual(
      all(built.storage, "AWS::KMS::Alias").map((a) => a.Properties.AliasName),
      [def.keyAlias],
    );
    assert.deepEqual(
      all(built.storage, "AWS::SecretsManager::Secret")
        .map((s) => s.Properties.Name)
        .sort(),
      [...def.secrets.map((s) => s.name), def.keyMaster.name, ...def.keyPairs.map((p) => p.name)].sort(),
    );
  });

  it("create every key pair the services read at boot (ADR 0014), each sealed with the data key", () => {
    const secrets = new Map(
      all(built.storage, "AWS::SecretsManager::Secret").map((s) => [s.Properties.Name, s.Properties]),
    );
    for (const service of deployedServices)
      for (const pair of keyPairsOf(service)) {
        const secret = secrets.get(keyPairSecretName(settings.prefix, settings.stage, pair.id));
        assert.ok(secret, `${service}: ${pair.id}`);
        assert.ok(secret.KmsKeyId, pair.id);
        // What Secrets Manager generates from the template is a first generation the loader reads
        // (moto's CloudFormation makes no secrets, so this is checked on the template).
        const g = secret.GenerateSecretString;
        const generated = {
          ...JSON.parse(g.SecretStringTemplate),
          [g.GenerateStringKey]: "x".repeat(g.PasswordLength),
        };
        assert.deepEqual(PairSecret.parse(generated).current, { generation: 1, key: "x".repeat(43) }, pair.id);
      }
  });

  it("deploy into moto's CloudFormation, where the bootstrap then finds the same bus, rules, queues and key", async () => {
    await deployDataStacksIntoMoto(synth, endpoint);

    const { changes } = await bootstrap({
      aws: createAwsClients({ endpoint, allowed: BOOTSTRAP_CLIENTS }),
      prefix: settings.prefix,
      stage: settings.stage,
      mailFrom: settings.mailFrom,
    });
    // The us-east-1 side is the partner stack's, not deployed here.
    const eu = changes.filter((c: string) => !/partner-inbound|partner-\d/.test(c));
    // Nothing the definition names is missing or different: no bus, rule, queue or key is created,
    // no rule's pattern and no queue's settings changed (moto's CloudFormation leaves some bucket
    // settings and the targets' DLQ config out, which the bootstrap then applies: not compared).
    for (const c of eu) assert.doesNotMatch(c, /^(created (bus|event bus|queue|KMS key|rule)|put rule)/, c);
    for (const c of eu.filter((x) => x.includes("of queue"))) assert.match(c, /^set Policy of queue /, c);
    // A DLQ's Policy (the rule may dead-letter into it) is re-set like a queue's; nothing else of it.
    for (const q of def.queues)
      assert.ok(!eu.some((c) => c.endsWith(`queue ${q.dlqName}`) && !c.startsWith("set Policy of")), q.dlqName);
  });

  it("have the same us-east-1 partner ingest: buses, rule, transit queue and DLQ", () => {
    assert.deepEqual(
      all(built.partner, "AWS::Events::EventBus").map((b) => b.Properties.Name),
      partner.buses,
    );
    const rules = all(built.partner, "AWS::Events::Rule");
    assert.equal(rules.length, partner.buses.length);
    for (const r of rules) {
      assert.equal(r.Properties.Name, partner.ruleName);
      assert.deepEqual(r.Properties.EventPattern, partner.eventPattern);
    }
    const queues = new Map(all(built.partner, "AWS::SQS::Queue").map((q) => [q.Properties.QueueName, q.Properties]));
    assert.deepEqual([...queues.keys()].sort(), [partner.queueName, partner.dlqName].sort());
    assert.equal(queues.get(partner.queueName)!.RedrivePolicy.maxReceiveCount, partner.maxReceiveCount);
    for (const q of queues.values()) assert.equal(q.MessageRetentionPeriod, partner.retentionSeconds);
  });
});
