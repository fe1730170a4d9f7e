import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { OUTBOX_BACKLOG_METRIC, OUTBOX_OLDEST_PENDING_AGE_METRIC } from "@flowstate/shared/outbox/lag-metric";
import { Validations } from "aws-cdk-lib";
import { Match } from "aws-cdk-lib/assertions";
import nag from "cdk-nag";
import { describe, it } from "vitest";
import { consumes, dataServices, deploymentNames, entryOf, relayServices } from "./services.ts";
import { TARGET_RETRY } from "./stacks/messaging.ts";
import { endpointClients } from "./stacks/network.ts";
import {
  ERASURE_LAG_ALARM_SECONDS,
  ERASURE_LAG_FIELD,
  ERASURE_LAG_PATTERN,
  OUTBOX_FAILURE_PATTERN,
  OUTBOX_LAG_ALARM_SECONDS,
} from "./stacks/observability.ts";
import { type CfnJson, synthesize } from "./synth.ts";

// One synthesis for the whole file (seconds of CPU): every test reads these templates.
const { built, settings, template } = synthesize({ validate: true });
const names = deploymentNames(settings);
const root = join(import.meta.dirname, "..", "..");
const def = names.definition;
type Resources = Record<string, { Type: string; Properties?: Record<string, CfnJson> }>;
const resources = (stack: (typeof built.stacks)[number], type: string) =>
  Object.values(template(stack).toJSON().Resources as Resources).filter((r) => r.Type === type);

describe("the synthesized stacks", () => {
  it("network: a VPC over three AZs with private subnets and an endpoint for each AWS client the services use", () => {
    const t = template(built.network);
    t.resourceCountIs("AWS::EC2::VPC", 1);
    const subnets = resources(built.network, "AWS::EC2::Subnet").map((s) => s.Properties!.AvailabilityZone);
    assert.equal(new Set(subnets.map((z) => JSON.stringify(z))).size, 3);
    const interfaces = resources(built.network, "AWS::EC2::VPCEndpoint").map((e) =>
      JSON.stringify(e.Properties!.ServiceName),
    );
    for (const client of endpointClients()) {
      const service = { sesv2: "email", eventbridge: "events", secretsmanager: "secretsmanager" }[client] ?? client;
      assert.ok(
        interfaces.some((n) => n.includes(`.${service}`)),
        `no endpoint for ${client}`,
      );
    }
    assert.ok(interfaces.some((n) => n.includes("ecr.dkr")) && interfaces.some((n) => n.includes(".logs")));
  });

  it("data: Aurora PostgreSQL Serverless v2 encrypted with the data key, backups, deletion protection, a login per service", () => {
    const t = template(built.data);
    t.hasResourceProperties("AWS::RDS::DBCluster", {
      Engine: "aurora-postgresql",
      StorageEncrypted: true,
      KmsKeyId: Match.anyValue(),
      DeletionProtection: true,
      BackupRetentionPeriod: 35,
      ServerlessV2ScalingConfiguration: Match.objectLike({ MinCapacity: 1 }),
    });
    t.hasResourceProperties("AWS::RDS::DBInstance", { DBInstanceClass: "db.serverless" });
    const logins = resources(built.data, "AWS::SecretsManager::Secret").map((s) => s.Properties!.Name);
    for (const svc of dataServices.filter((s) => entryOf(s).database))
      for (const login of names.databaseLogins(svc)) assert.ok(logins.includes(login.secretName), login.secretName);
    assert.ok(logins.includes(names.adminSecretName));
  });

  it("messaging: the bus, per consumer its rule, queue and DLQ, and a DLQ and retry policy on every target", () => {
    const t = template(built.messaging);
    t.hasResourceProperties("AWS::Events::EventBus", { Name: def.busName });
    const rules = resources(built.messaging, "AWS::Events::Rule");
    assert.equal(rules.length, def.queues.length);
    for (const rule of rules)
      for (const target of rule.Properties!.Targets) {
        assert.ok(target.DeadLetterConfig?.Arn, `${rule.Properties!.Name} target has no DLQ`);
        assert.deepEqual(target.RetryPolicy, {
          MaximumRetryAttempts: TARGET_RETRY.attempts,
          MaximumEventAgeInSeconds: TARGET_RETRY.maxEventAgeSeconds,
        });
      }
    t.hasResourceProperties("AWS::SES::EmailIdentity", { EmailIdentity: def.mailFrom });
  });

  it("storage: exports SSE-KMS, 7 days, TLS only, no public access; audit archive Object Lock COMPLIANCE 2555 days; snapshots", () => {
    const t = template(built.storage);
    const blocked = {
      BlockPublicAcls: true,
      BlockPublicPolicy: true,
      IgnorePublicAcls: true,
      RestrictPublicBuckets: true,
    };
    t.hasResourceProperties("AWS::S3::Bucket", {
      BucketName: def.buckets[0]!.name,
      BucketEncryption: {
        ServerSideEncryptionConfiguration: [
          Match.objectLike({ ServerSideEncryptionByDefault: Match.objectLike({ SSEAlgorithm: "aws:kms" }) }),
        ],
      },
      LifecycleConfiguration: { Rules: [Match.objectLike({ ExpirationInDays: 7, Status: "Enabled" })] },
      PublicAccessBlockConfiguration: blocked,
    });
    t.hasResourceProperties("AWS::S3::Bucket", {
      BucketName: `flowstate-prod-${settings.account}-audit-archive`,
      ObjectLockEnabled: true,
      ObjectLockConfiguration: {
        ObjectLockEnabled: "Enabled",
        Rule: { DefaultRetention: { Mode: "COMPLIANCE", Days: 2555 } },
      },
      VersioningConfiguration: { Status: "Enabled" },
    });
    t.hasResourceProperties("AWS::S3::Bucket", { BucketName: `flowstate-prod-${settings.account}-snapshots` });
    // TLS only: every bucket's policy denies aws:SecureTransport false.
    for (const policy of resources(built.storage, "AWS::S3::BucketPolicy"))
      assert.ok(
        policy.Properties!.PolicyDocument.Statement.some(
          (s: CfnJson) => s.Effect === "Deny" && s.Condition?.Bool?.["aws:SecureTransport"] === "false",
        ),
      );
    assert.equal(resources(built.storage, "AWS::S3::BucketPolicy").length, 4);
  });

  it("compute: a Fargate service per eu-central-1 service from one image asset, the doors behind TLS and WAF, /readyz", () => {
    const t = template(built.compute);
    const services = resources(built.compute, "AWS::ECS::Service").map((s) => s.Properties!.ServiceName);
    assert.deepEqual(services.sort(), [...dataServices].sort());
    const tasks = resources(built.compute, "AWS::ECS::TaskDefinition");
    const images = new Set(tasks.map((task) => JSON.stringify(task.Properties!.ContainerDefinitions[0].Image)));
    assert.equal(images.size, 1, "one image for every service");
    for (const task of tasks) {
      const c = task.Properties!.ContainerDefinitions[0];
      assert.equal(c.User, "node");
      if (c.Command.at(-1).startsWith("services/")) assert.match(c.HealthCheck.Command.join(" "), /\/readyz/);
    }
    t.hasResourceProperties("AWS::ElasticLoadBalancingV2::Listener", {
      Protocol: "HTTPS",
      Port: 443,
      Certificates: [{ CertificateArn: settings.certificateArn }],
    });
    t.hasResourceProperties("AWS::ElasticLoadBalancingV2::LoadBalancer", { Scheme: "internet-facing" });
    t.hasResourceProperties("AWS::ElasticLoadBalancingV2::TargetGroup", { HealthCheckPath: "/readyz" });
    const acl = resources(built.compute, "AWS::WAFv2::WebACL")[0]!;
    const groups = acl
      .Properties!.Rules.map((r: CfnJson) => r.Statement.ManagedRuleGroupStatement?.Name)
      .filter(Boolean);
    assert.ok(
      groups.includes("AWSManagedRulesCommonRuleSet") && groups.includes("AWSManagedRulesKnownBadInputsRuleSet"),
    );
    t.resourceCountIs("AWS::WAFv2::WebACLAssociation", 1);
    // Only the doors are targets of the public load balancer.
    assert.equal(
      resources(built.compute, "AWS::ElasticLoadBalancingV2::TargetGroup").filter(
        (g) => g.Properties!.Protocol === "HTTP",
      ).length,
      2,
    );
  });

  it("compute: doors scale on CPU and requests, consumers on their queue's backlog per task", () => {
    const policies = resources(built.compute, "AWS::ApplicationAutoScaling::ScalingPolicy").map((p) => p.Properties!);
    const predefined = policies.map(
      (p) => p.TargetTrackingScalingPolicyConfiguration.PredefinedMetricSpecification?.PredefinedMetricType,
    );
    assert.equal(predefined.filter((m) => m === "ECSServiceAverageCPUUtilization").length, 2);
    assert.equal(predefined.filter((m) => m === "ALBRequestCountPerTarget").length, 2);
    const backlog = policies.filter((p) => p.PolicyName?.endsWith("-backlog-per-task"));
    const consumers = dataServices.filter((s) => consumes(s) && entryOf(s).kind !== "door");
    assert.deepEqual(backlog.map((p) => p.PolicyName.replace("-backlog-per-task", "")).sort(), [...consumers].sort());
  });

  it("identity: the two principals, assumable by connector-svc's and offers-svc's task roles only", () => {
    const roles = resources(built.identity, "AWS::IAM::Role").map((r) => r.Properties!);
    for (const name of ["flowstate-prod-backend", "flowstate-prod-mcp-execution"]) {
      const role = roles.find((r) => r.RoleName === name)!;
      const trusted = JSON.stringify(role.AssumeRolePolicyDocument);
      // Principals name the task roles' logical ids (Task-<service>, dashes dropped).
      assert.match(trusted, /"Taskconnectorsvc/);
      assert.match(trusted, /"Taskofferssvc/);
      assert.equal(role.AssumeRolePolicyDocument.Statement.length, 2);
    }
  });

  it("observability: log groups with retention, an alarm per DLQ, 5xx and p99 per door, outbox and export failures, one dashboard", () => {
    for (const group of resources(built.compute, "AWS::Logs::LogGroup"))
      assert.equal(group.Properties!.RetentionInDays, 90);
    const alarms = resources(built.observability, "AWS::CloudWatch::Alarm").map(
      (a) => a.Properties!.AlarmDescription as string,
    );
    for (const q of def.queues) {
      assert.ok(
        alarms.some((a) => a.startsWith(`A message is in ${q.dlqName}`)),
        `${q.dlqName}: depth alarm`,
      );
      assert.ok(
        alarms.some((a) => a.startsWith(`A message has waited in ${q.dlqName}`)),
        `${q.dlqName}: age alarm (§7 check 20)`,
      );
    }
    assert.equal(alarms.filter((a) => a.includes("5xx")).length, 2);
    assert.equal(alarms.filter((a) => a.includes("p99")).length, 2);
    assert.ok(alarms.some((a) => a.includes("outbox")) && alarms.some((a) => a.includes("export failed")));
    template(built.observability).resourceCountIs("AWS::CloudWatch::Dashboard", 1);
  });

  it("observability: an outbox-lag alarm per relay service on the relay's EMF figure, on the dashboard, beside the failure alarm", () => {
    // The services that start the relay, read from their main.ts: the alarms must follow the code.
    const starting = dataServices.filter((s) =>
      /\bboot\.relay\(/.test(readFileSync(join(root, "services", s, "src", "main.ts"), "utf8")),
    );
    assert.deepEqual([...relayServices].sort(), starting.sort());
    assert.ok(relayServices.length >= 4);
    const t = template(built.observability);
    const lag = resources(built.observability, "AWS::CloudWatch::Alarm")
      .map((a) => a.Properties!)
      .filter((a) => a.MetricName === OUTBOX_OLDEST_PENDING_AGE_METRIC);
    assert.deepEqual(
      lag.map((a) => a.Dimensions[0].Value).sort(),
      [...relayServices].sort(),
      "one alarm per relay service",
    );
    for (const a of lag) {
      assert.equal(a.Namespace, "Flowstate");
      assert.deepEqual(
        a.Dimensions.map((d: CfnJson) => d.Name),
        ["service"],
      );
      assert.equal(a.Statistic, "Maximum");
      assert.equal(a.Period, 300);
      assert.equal(a.Threshold, OUTBOX_LAG_ALARM_SECONDS);
      assert.equal(OUTBOX_LAG_ALARM_SECONDS, 300);
      assert.equal(a.ComparisonOperator, "GreaterThanThreshold");
      assert.equal(a.TreatMissingData, "notBreaching");
      assert.equal(a.AlarmActions.length, 1);
      assert.match(a.AlarmDescription, /outbox lag/);
    }
    // The relay failures stay alarmed on their log lines, where a relay runs (one filter each).
    t.hasResourceProperties("AWS::Logs::MetricFilter", { FilterPattern: OUTBOX_FAILURE_PATTERN });
    assert.equal(
      resources(built.observability, "AWS::Logs::MetricFilter").filter(
        (f) => f.Properties!.FilterPattern === OUTBOX_FAILURE_PATTERN,
      ).length,
      relayServices.length,
    );
    const body = JSON.stringify(
      resources(built.observability, "AWS::CloudWatch::Dashboard")[0]!.Properties!.DashboardBody,
    );
    assert.ok(body.includes(OUTBOX_OLDEST_PENDING_AGE_METRIC) && body.includes(OUTBOX_BACKLOG_METRIC));
    // Each relay service's task asks for the figure the alarm reads.
    for (const task of resources(built.compute, "AWS::ECS::TaskDefinition")) {
      const c = task.Properties!.ContainerDefinitions[0];
      const service = relayServices.find((s) => c.Command.at(-1).startsWith(`services/${s}/`));
      if (!service) continue;
      const env = Object.fromEntries(c.Environment.map((e: CfnJson) => [e.Name, e.Value]));
      assert.ok(Number(env.OUTBOX_LAG_METRIC_MS) > 0, `${service}: OUTBOX_LAG_METRIC_MS`);
    }
  });

  it("observability: the account deletion lag as a metric from privacy-svc's erasure log, an alarm on it and on a stuck erasure (§7 check 7)", () => {
    const t = template(built.observability);
    t.hasResourceProperties("AWS::Logs::MetricFilter", {
      FilterPattern: ERASURE_LAG_PATTERN,
      MetricTransformations: [
        Match.objectLike({
          MetricName: "AccountErasureLag",
          MetricNamespace: "Flowstate/privacy-svc",
          MetricValue: `$.${ERASURE_LAG_FIELD}`,
          Unit: "Seconds",
        }),
      ],
    });
    // No default value: an hour without deletions is missing data, not a lag of 0.
    const filter = resources(built.observability, "AWS::Logs::MetricFilter").find(
      (f) => f.Properties!.FilterPattern === ERASURE_LAG_PATTERN,
    )!;
    assert.equal((filter.Properties!.MetricTransformations as { DefaultValue?: number }[])[0]!.DefaultValue, undefined);
    t.hasResourceProperties("AWS::CloudWatch::Alarm", {
      MetricName: "AccountErasureLag",
      Namespace: "Flowstate/privacy-svc",
      Statistic: "Maximum",
      Threshold: ERASURE_LAG_ALARM_SECONDS,
      ComparisonOperator: "GreaterThanThreshold",
      AlarmActions: Match.anyValue(),
    });
    const privacyQueue = def.queues.find((q) => q.service === "privacy-svc")!.queueName;
    t.hasResourceProperties("AWS::CloudWatch::Alarm", {
      MetricName: "ApproximateAgeOfOldestMessage",
      Dimensions: [{ Name: "QueueName", Value: privacyQueue }],
      Threshold: ERASURE_LAG_ALARM_SECONDS,
      AlarmDescription: Match.stringLikeRegexp("account deletion may not be erased"),
    });
  });

  it("partner (us-east-1): the shard buses, the transit queue and DLQ with one day's retention, the handler", () => {
    const p = names.partner;
    assert.equal(built.partner.region, "us-east-1");
    assert.deepEqual(
      resources(built.partner, "AWS::Events::EventBus").map((b) => b.Properties!.Name),
      p.buses,
    );
    for (const name of [p.queueName, p.dlqName])
      template(built.partner).hasResourceProperties("AWS::SQS::Queue", {
        QueueName: name,
        MessageRetentionPeriod: 86400,
      });
    template(built.partner).hasResourceProperties("AWS::ECS::Service", { ServiceName: "partner-inbound" });
  });

  it("partner (us-east-1): a depth and an age alarm on the transit DLQ, in its region, into a topic there (§7 check 20)", () => {
    const p = names.partner;
    const alarms = resources(built.partner, "AWS::CloudWatch::Alarm").map((a) => a.Properties!);
    const on = (metric: string) =>
      alarms.find(
        (a) =>
          a.MetricName === metric &&
          (a.Dimensions as { Name: string; Value: string }[]).some(
            (d) => d.Name === "QueueName" && d.Value === p.dlqName,
          ),
      );
    const depth = on("ApproximateNumberOfMessagesVisible");
    assert.ok(depth, "depth alarm");
    assert.equal(depth.Threshold, 0);
    assert.match(depth.AlarmDescription as string, new RegExp(`^A message is in ${p.dlqName}`));
    const age = on("ApproximateAgeOfOldestMessage");
    assert.ok(age, "age alarm");
    assert.ok((age.Threshold as number) < p.retentionSeconds, "it fires before the messages expire");
    const topics = resources(built.partner, "AWS::SNS::Topic");
    assert.equal(topics.length, 1);
    for (const a of [depth, age]) assert.equal((a.AlarmActions as unknown[]).length, 1);
  });

  it("passes CloudFormation's own template rules (CDK's built-in validation, which caught a description SG rules refuse)", () => {
    const report = JSON.parse(readFileSync(join(built.app.outdir, "validation-report.json"), "utf8"));
    for (const plugin of report.pluginReports) {
      assert.deepEqual(plugin.violations, [], plugin.pluginName);
      assert.equal(plugin.conclusion, "success");
    }
  });

  it("passes cdk-nag's AwsSolutions pack with no unacknowledged error, every acknowledgement with its reason", () => {
    for (const stack of built.stacks) {
      const report = new nag.AwsSolutionsChecks(stack).validateScope(stack);
      const errors = report.violations.filter((v) => v.severity === "error");
      assert.deepEqual(
        errors.map((v) => `${v.ruleName} ${v.violatingResources[0]?.constructPath}`),
        [],
        stack.stackName,
      );
    }
    const acknowledged = built.app.node
      .findAll()
      .flatMap((c) => c.node.metadata.filter((m) => m.type === Validations.ACKNOWLEDGED_RULES_METADATA_KEY))
      .flatMap((m) => Object.values(m.data as Record<string, { reason?: string } | string>));
    assert.ok(acknowledged.length > 5);
    for (const a of acknowledged) {
      const reason = typeof a === "string" ? a : a.reason;
      assert.ok(reason && reason.split(" ").length >= 6, `acknowledgement without a reason: ${JSON.stringify(a)}`);
    }
  });
});
