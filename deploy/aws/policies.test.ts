import assert from "node:assert/strict";
import { keyPairsOf } from "@flowstate/contracts/internal/key-pairs";
import { App, RemovalPolicy, Stack } from "aws-cdk-lib";
import { Template } from "aws-cdk-lib/assertions";
import * as dynamodb from "aws-cdk-lib/aws-dynamodb";
import * as s3 from "aws-cdk-lib/aws-s3";
import { describe, it } from "vitest";
import { templateResidencyViolations } from "./residency.ts";
import { BUCKET_USERS, deployedServices, deploymentNames } from "./services.ts";
import { type CfnJson, synthesize } from "./synth.ts";

// One synthesis for the whole file: the residency and least-privilege rules read its templates.
const { built, settings, template } = synthesize();
const names = deploymentNames(settings);
const stacks = built.stacks.map((s) => ({ name: s.stackName, region: s.region, template: template(s) }));

type Statement = { Action: string | string[]; Resource: unknown; Effect: string };
/** Every statement of a service's task role (the inline policy identity.ts attaches). */
function statementsOf(service: string): Statement[] {
  const resources = template(built.identity).toJSON().Resources as Record<string, CfnJson>;
  const roleId = Object.keys(resources).find(
    (id) => resources[id].Properties?.RoleName === `flowstate-prod-${service}-task`,
  )!;
  return Object.values(resources)
    .filter((r) => r.Type === "AWS::IAM::Policy" && JSON.stringify(r.Properties.Roles).includes(`"${roleId}"`))
    .flatMap((r) => r.Properties.PolicyDocument.Statement as Statement[]);
}
const list = (v: unknown) => (Array.isArray(v) ? v : [v]).map((x) => (typeof x === "string" ? x : JSON.stringify(x)));

describe("residency over the synthesized templates", () => {
  it("keeps every stack in eu-central-1 but the partner stack, which holds only the allowed kinds", () => {
    assert.deepEqual(templateResidencyViolations(stacks, built.partner.stackName), []);
    assert.deepEqual(
      built.stacks.filter((s) => s.region !== "eu-central-1").map((s) => s.stackName),
      [built.partner.stackName],
    );
  });

  it("fails a fixture with a bucket and a table in us-east-1", () => {
    const app = new App({ builtinCloudFormationValidation: false });
    const fixture = new Stack(app, "Fixture", { env: { account: settings.account, region: "us-east-1" } });
    new s3.Bucket(fixture, "Oops", { removalPolicy: RemovalPolicy.RETAIN });
    new dynamodb.Table(fixture, "Table", { partitionKey: { name: "id", type: dynamodb.AttributeType.STRING } });
    const violations = templateResidencyViolations(
      [...stacks, { name: "Fixture", region: "us-east-1", template: Template.fromStack(fixture) }],
      built.partner.stackName,
    ).join("\n");
    assert.match(violations, /Fixture is in us-east-1/);
    assert.match(violations, /AWS::S3::Bucket in us-east-1 is not an allowed kind/);
    assert.match(violations, /AWS::DynamoDB::Table in us-east-1 is not an allowed kind/);
    // The same bucket slipped into the partner stack itself fails too.
    const partnerWithBucket = templateResidencyViolations(
      [{ name: "P", region: "us-east-1", template: Template.fromStack(fixture) }],
      "P",
    );
    assert.ok(partnerWithBucket.some((v) => v.includes("AWS::S3::Bucket")));
  });
});

describe("least privilege over the synthesized IAM policies", () => {
  it("grants no `*` action and no service-wide wildcard on any data service", () => {
    for (const service of deployedServices)
      for (const s of statementsOf(service))
        for (const action of list(s.Action)) assert.doesNotMatch(action, /^\*$|:\*$/, `${service}: ${action}`);
  });

  it("gives each task role only its own queue, its own bucket and its own secrets (no shared one)", () => {
    const def = names.definition;
    for (const service of deployedServices) {
      const resources = statementsOf(service).flatMap((s) => list(s.Resource));
      for (const r of resources) {
        if (r.includes(":sqs:")) assert.match(r, new RegExp(`:flowstate-prod-${service}(-dlq)?$`), `${service} → ${r}`);
        if (r.includes(":s3:::")) {
          const own = def.buckets.filter((b) => BUCKET_USERS[b.role] === service).map((b) => b.name);
          assert.ok(
            own.some((b) => r.includes(b)),
            `${service} → ${r}`,
          );
        }
        if (r.includes(":secretsmanager:")) {
          const allowed = [
            ...def.secrets.filter((x) => x.readers.includes(service)).map((x) => x.name),
            ...(service === "identity-svc" ? [names.signingKeysSecretId] : []),
            ...def.keyPairs.filter((p) => keyPairsOf(service).some((k) => k.id === p.pairId)).map((p) => p.name),
          ];
          assert.ok(
            allowed.some((name) => r.includes(`:secret:${name}-`)),
            `${service} → ${r}`,
          );
        }
      }
    }
  });

  it("lets no task role read the key master, and partner-inbound read only its one key pair (ADR 0014)", () => {
    const def = names.definition;
    for (const service of deployedServices) {
      const resources = statementsOf(service).flatMap((s) => list(s.Resource));
      assert.ok(!resources.some((r) => r.includes(`:secret:${def.keyMaster.name}-`)), service);
    }
    const partnerKeys = statementsOf("partner-inbound")
      .flatMap((s) => list(s.Resource))
      .filter((r) => r.includes("/keys/"));
    assert.deepEqual(
      partnerKeys.map((r) => r.replace(/^.*\/keys\//, "").replace(/-\?{6}$/, "")),
      ["partner-inbound--connector-svc"],
    );
  });

  it("lets identity-svc alone read its sign-in throttle key, and no role read a shared assertion key", () => {
    const throttle = names.definition.secrets.find((x) => x.readers.includes("identity-svc"))!.name;
    for (const service of deployedServices) {
      const resources = statementsOf(service).flatMap((s) => list(s.Resource));
      assert.equal(
        resources.some((r) => r.includes(`:secret:${throttle}-`)),
        service === "identity-svc",
        service,
      );
      assert.ok(!resources.some((r) => r.includes("internal-auth-key")), service);
    }
  });

  it("privacy-svc cannot read the audit archive; audit-svc cannot delete from it", () => {
    const privacy = JSON.stringify(statementsOf("privacy-svc"));
    assert.doesNotMatch(privacy, /audit-archive/);
    assert.match(privacy, /-exports/);
    const audit = statementsOf("audit-svc");
    const onArchive = audit
      .filter((s) => list(s.Resource).some((r) => r.includes("audit-archive")))
      .flatMap((s) => list(s.Action));
    assert.ok(onArchive.includes("s3:PutObject"));
    assert.ok(!onArchive.some((a) => a.startsWith("s3:Delete")), onArchive.join());
  });

  it("partner-inbound cannot reach the database: no login secret, no rds action, no security group the database admits", () => {
    const partner = JSON.stringify(statementsOf("partner-inbound"));
    assert.doesNotMatch(partner, /rds|database/);
    assert.equal(built.data.logins.has("partner-inbound"), false);
    const ingress = template(built.network).toJSON().Resources as Record<string, CfnJson>;
    const dbGroupId = Object.keys(ingress).find(
      (id) => id.startsWith("Database") && ingress[id].Type === "AWS::EC2::SecurityGroup",
    )!;
    const admitted = Object.values(ingress)
      .filter(
        (r) => r.Type === "AWS::EC2::SecurityGroupIngress" && JSON.stringify(r.Properties.GroupId).includes(dbGroupId),
      )
      .map((r) => r.Properties.SourceSecurityGroupId["Fn::GetAtt"][0] as string);
    assert.deepEqual(
      admitted.sort(),
      [
        "DatabaseAdmin",
        "Svc-audit",
        "Svc-connector",
        "Svc-identity",
        "Svc-notify",
        "Svc-offers",
        "Svc-partner",
        "Svc-privacy",
        "Svc-webconsole",
      ]
        .map(
          (id) =>
            Object.keys(ingress).find(
              (k) => k.startsWith(id.replace("-", "")) && ingress[k].Type === "AWS::EC2::SecurityGroup",
            )!,
        )
        .sort(),
    );
    assert.ok(
      !admitted.some((id) => id.startsWith("Svcpartnerinbound") || id.startsWith("Svcedge") || id.startsWith("Svcmcp")),
    );
  });

  it("gives each execution role only its own service's login secrets, its own log group and Decrypt through Secrets Manager", () => {
    const resources = template(built.compute).toJSON().Resources as Record<string, CfnJson>;
    for (const service of deployedServices.filter((s) => s !== "partner-inbound")) {
      const roleId =
        resources[
          Object.keys(resources).find((id) => resources[id].Properties?.Family === `flowstate-prod-${service}`)!
        ].Properties.ExecutionRoleArn["Fn::GetAtt"][0];
      const statements = Object.values(resources)
        .filter((r) => r.Type === "AWS::IAM::Policy" && JSON.stringify(r.Properties.Roles).includes(`"${roleId}"`))
        .flatMap((r) => r.Properties.PolicyDocument.Statement as Statement[]);
      const own = names.databaseLogins(service).map((l) => `Login${l.username.replaceAll("_", "")}`);
      const secrets = statements.filter((s) => list(s.Action).includes("secretsmanager:GetSecretValue"));
      assert.equal(secrets.length, own.length, service);
      for (const s of secrets)
        assert.ok(
          own.some((id) => JSON.stringify(s.Resource).includes(id)),
          `${service} → ${JSON.stringify(s.Resource)}`,
        );
      const decrypt = statements.filter((s) => list(s.Action).includes("kms:Decrypt"));
      assert.equal(decrypt.length, own.length ? 1 : 0, service);
      for (const s of statements.filter((s) => list(s.Action).includes("logs:PutLogEvents")))
        assert.match(
          JSON.stringify(s.Resource),
          new RegExp(`"Logs${service.replace(/-svc$/, "").replaceAll("-", "")}[0-9A-F]{8}"`),
          service,
        );
    }
  });

  it("lets only connector-svc and offers-svc assume the principals", () => {
    for (const service of deployedServices) {
      const assumes = JSON.stringify(statementsOf(service)).includes("sts:AssumeRole");
      assert.equal(assumes, service === "connector-svc" || service === "offers-svc", service);
    }
  });
});
