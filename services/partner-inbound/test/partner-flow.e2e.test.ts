import assert from "node:assert/strict";
import { type ChildProcess, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { join } from "node:path";
import { CloudWatchLogsClient, DescribeLogGroupsCommand } from "@aws-sdk/client-cloudwatch-logs";
import { DynamoDBClient, ListTablesCommand } from "@aws-sdk/client-dynamodb";
import { GetBucketLocationCommand, ListBucketsCommand, S3Client } from "@aws-sdk/client-s3";
import { ListSecretsCommand, PutSecretValueCommand, SecretsManagerClient } from "@aws-sdk/client-secrets-manager";
import { GetQueueAttributesCommand, ListQueuesCommand, SendMessageBatchCommand, SQSClient } from "@aws-sdk/client-sqs";
import { DescribeParametersCommand, SSMClient } from "@aws-sdk/client-ssm";
import { type MarketplaceStack, startMarketplaceStack } from "@flowstate/connector-svc/testing/marketplace-stack";
import { pairSecretAt } from "@flowstate/shared/auth/keyring";
import { createAwsClients } from "@flowstate/shared/aws/clients";
import { keyPairSecretName } from "@flowstate/shared/boot/keyring-loader";
import { waitFor } from "@flowstate/shared/consumer/test-events";
import { openTestDatabase, type TestDatabase } from "@flowstate/shared/db/test-database";
import { nodeBinary } from "@flowstate/shared/testing/node-binary";
import { afterAll, beforeAll, describe, it } from "vitest";
import { bootstrap, type StackOutputs } from "../../../deploy/local/bootstrap.ts";
import { freePort } from "../../../deploy/local/ports.ts";
import { partnerDomainEventId } from "../src/publish.ts";
import { invitationDetail, opportunityDetail, partnerEvent } from "../src/testdata/partner-events.ts";

/**
 * Issue 14 end to end: a connected tenant (the CloudFormation onboarding through the gateway, the
 * sandbox as the seller), partner-inbound and partner-svc as real processes (their main.ts) on a
 * bootstrapped stack of their own prefix, Partner Central events with AWS's shapes on the
 * us-east-1 queue (ADR 0003: moto drops `account` on cross-account forwarding), rows in
 * eu-central-1, a kill in mid-stream, and nothing of the events left in us-east-1.
 */
const endpoint = process.env.AWS_ENDPOINT_URL!;
const root = join(import.meta.dirname, "..", "..", "..");
const prefix = `pe${randomBytes(3).toString("hex")}`;
const aws = createAwsClients({ endpoint });
let stack: MarketplaceStack;
let outputs: StackOutputs;
let db: TestDatabase;
const children: ChildProcess[] = [];

function start(service: string, env: Record<string, string>) {
  const child = spawn(nodeBinary, [join(root, "services", service, "src", "main.ts")], {
    env: {
      ...process.env,
      SERVICE_PREFIX: prefix,
      STAGE: "dev",
      AWS_ENDPOINT_URL: endpoint,
      LOG_LEVEL: "warn",
      ...env,
    },
    stdio: ["ignore", "inherit", "inherit"],
  });
  children.push(child);
  return child;
}

const ready = (url: string) =>
  waitFor(
    async () =>
      (await fetch(`${url}/readyz`).then(
        (r) => r.ok,
        () => false,
      )) || undefined,
    60_000,
    `${url} ready`,
    200,
  );

async function sendPartnerEvents(bodies: string[]) {
  const sqs = aws.partner("partner-sqs");
  for (let i = 0; i < bodies.length; i += 10) {
    await sqs.send(
      new SendMessageBatchCommand({
        QueueUrl: outputs.partner.queueUrl,
        Entries: bodies.slice(i, i + 10).map((MessageBody, j) => ({ Id: String(j), MessageBody })),
      }),
    );
  }
}

const rows = async (table: string, tenantId: string) =>
  db.orm.em
    .fork()
    .execute<Record<string, unknown>[]>(`SELECT * FROM "${db.schema}".${table} WHERE tenant_id = ? ORDER BY 3`, [
      tenantId,
    ]);

let inbound: { url: string; child: ChildProcess };
async function startInbound() {
  const port = await freePort();
  // A refresh a second: a disconnect reaches the map through the list (this stack relays no connector events).
  const child = start("partner-inbound", {
    PORT: String(port),
    CONNECTOR_URL: stack.connectorUrl,
    TENANT_MAP_REFRESH_MS: "1000",
  });
  const url = `http://127.0.0.1:${port}`;
  await ready(url);
  inbound = { url, child };
}

beforeAll(async () => {
  stack = await startMarketplaceStack({ prefix: "partner_e2e" });
  outputs = (await bootstrap({ aws, prefix, stage: "dev", mailFrom: `no-reply@${prefix}.local` })).outputs;
  // partner-inbound's one key (ADR 0014), as the in-process connector-svc derives it from the same secret.
  const pair = "partner-inbound--connector-svc";
  await aws.data("secretsmanager").send(
    new PutSecretValueCommand({
      SecretId: keyPairSecretName(prefix, "dev", pair),
      SecretString: JSON.stringify(pairSecretAt(stack.secret, pair, 1)),
    }),
  );
  db = await openTestDatabase({ prefix: "partner_e2e_rows" });
  const port = await freePort();
  start("partner-svc", { PORT: String(port), DATABASE_URL: db.url, DATABASE_SCHEMA: db.schema });
  await ready(`http://127.0.0.1:${port}`);
});

afterAll(async () => {
  for (const c of children) c.kill("SIGKILL");
  await db?.close();
  await stack?.close();
});

describe("partner events from us-east-1 to eu-central-1", () => {
  it("become sync-state rows of the right tenant exactly once, whatever the order and with duplicates; a disconnected account's are dropped and counted", async () => {
    const t = await stack.connectedTenant();
    const other = await stack.connectedTenant();
    const gone = await stack.connectedTenant();
    await startInbound();
    const connected = async () =>
      Number(/partner_connected_accounts (\d+)/.exec(await (await fetch(`${inbound.url}/metrics`)).text())?.[1]);
    await waitFor(async () => (await connected()) === 3 || undefined, 30_000, "three accounts admitted", 200);
    await stack.call("DELETE", `/v1/tenants/${gone.tenantId}/integrations/marketplace`, { token: gone.owner.token });
    await waitFor(async () => (await connected()) === 2 || undefined, 30_000, "the disconnect seen", 200);
    const account = t.seller.accountId;
    const at = (m: number) => new Date(Date.UTC(2026, 10, 23, 9, m)).toISOString().replace(".000", "");
    const events = [
      partnerEvent("Opportunity Created", opportunityDetail("O1001"), { account, time: at(1) }),
      partnerEvent("Opportunity Updated", opportunityDetail("O1001"), { account, time: at(2) }),
      partnerEvent("Opportunity Accepted", opportunityDetail("O1001"), { account, time: at(3) }),
      partnerEvent("Engagement Invitation Created", invitationDetail("engi-aaaaaaaaaaaaa", "eng-bbbbbbbbbbbbbb"), {
        account,
        time: at(4),
      }),
      partnerEvent("Engagement Invitation Accepted", invitationDetail("engi-aaaaaaaaaaaaa", "eng-bbbbbbbbbbbbbb"), {
        account,
        time: at(5),
      }),
      partnerEvent("Opportunity Created", opportunityDetail("O2002"), { account: other.seller.accountId, time: at(6) }),
    ];
    // Late events of the disconnected tenant: dropped, never re-creating its rows (issue 24).
    const unknown = [
      partnerEvent("Opportunity Created", opportunityDetail("O9999"), { account: gone.seller.accountId, time: at(7) }),
      partnerEvent("Opportunity Updated", opportunityDetail("O9999"), { account: gone.seller.accountId, time: at(8) }),
    ];
    // Newest first, every event twice, the disconnected tenant's in between.
    const bodies = [...events].reverse().flatMap((e) => [JSON.stringify(e), JSON.stringify(e)]);
    bodies.splice(3, 0, ...unknown.map((e) => JSON.stringify(e)));
    await sendPartnerEvents(bodies);

    await waitFor(
      async () =>
        ((await rows("partner_engagement", t.tenantId)).length === 1 &&
          (await rows("partner_opportunity", other.tenantId)).length === 1) ||
        undefined,
      90_000,
      "rows",
      250,
    );
    await waitFor(
      async () =>
        (await rows("partner_opportunity", t.tenantId))[0]?.last_event_type === "Opportunity Accepted" || undefined,
      30_000,
      "latest opportunity",
      250,
    );
    const [opportunity] = await rows("partner_opportunity", t.tenantId);
    assert.equal(opportunity!.opportunity_id, "O1001");
    assert.equal(opportunity!.review_outcome, "accepted");
    const [engagement] = await rows("partner_engagement", t.tenantId);
    assert.equal(engagement!.invitation_status, "ACCEPTED");
    assert.equal((await rows("partner_opportunity", other.tenantId))[0]!.opportunity_id, "O2002");
    // Exactly once: each partner event is one processed domain event id, whatever the duplicates.
    const ids = events.map((e) =>
      partnerDomainEventId({
        account_id: e.account,
        partner_event_id: e.id,
        event_time: new Date(e.time).toISOString(),
      }),
    );
    const processed = () =>
      db.orm.em
        .fork()
        .execute<{ event_id: string }[]>(
          `SELECT event_id FROM "${db.schema}".processed_event WHERE event_id IN (${ids.map(() => "?").join(",")})`,
          ids,
        );
    // Eventually every partner event is exactly one processed domain event (its id is derived).
    await waitFor(async () => (await processed()).length === events.length || undefined, 60_000, "processed", 250);
    assert.equal((await processed()).length, events.length);
    const metrics = await (await fetch(`${inbound.url}/metrics`)).text();
    assert.match(metrics, /partner_events_dropped_total\{reason="disconnected_account"\} 2/);
    assert.match(metrics, /partner_events_deferred_total 0/);
    assert.deepEqual(await rows("partner_opportunity", gone.tenantId), []);
  });

  it("loses nothing and applies nothing twice when partner-inbound is killed mid-stream", async () => {
    const t = await stack.connectedTenant();
    await waitFor(async () => (await fetch(`${inbound.url}/readyz`).then((r) => r.ok)) || undefined);
    inbound.child.kill("SIGKILL"); // stopped before the map learns t: the restart loads it from connector-svc
    const account = t.seller.accountId;
    const events = Array.from({ length: 30 }, (_, i) =>
      partnerEvent("Opportunity Created", opportunityDetail(`O${3000 + i}`), {
        account,
        time: new Date(Date.UTC(2026, 10, 23, 10, i)).toISOString(),
      }),
    );
    await sendPartnerEvents(events.map((e) => JSON.stringify(e)));
    await startInbound();
    await waitFor(
      async () => (await rows("partner_opportunity", t.tenantId)).length > 5 || undefined,
      60_000,
      "some rows",
      100,
    );
    inbound.child.kill("SIGKILL");
    await startInbound();
    await waitFor(
      async () => (await rows("partner_opportunity", t.tenantId)).length === 30 || undefined,
      120_000,
      "all rows",
      250,
    );
    const ids = events.map((e) =>
      partnerDomainEventId({
        account_id: e.account,
        partner_event_id: e.id,
        event_time: new Date(e.time).toISOString(),
      }),
    );
    const processed = await db.orm.em
      .fork()
      .execute<{ event_id: string }[]>(
        `SELECT event_id FROM "${db.schema}".processed_event WHERE event_id IN (${ids.map(() => "?").join(",")})`,
        ids,
      );
    assert.equal(processed.length, 30);
  });

  it("leaves nothing of the events in us-east-1: no object, item, secret, parameter or log; the queues drained", async () => {
    const usEast = {
      region: "us-east-1",
      endpoint,
      credentials: { accessKeyId: "testing", secretAccessKey: "testing" },
    };
    const { QueueUrls = [] } = await new SQSClient(usEast).send(new ListQueuesCommand({ QueueNamePrefix: prefix }));
    assert.deepEqual(QueueUrls.map((u) => u.split("/").pop()).sort(), [
      `${prefix}-dev-partner-inbound`,
      `${prefix}-dev-partner-inbound-dlq`,
    ]);
    await waitFor(
      async () => {
        for (const QueueUrl of QueueUrls) {
          const { Attributes } = await new SQSClient(usEast).send(
            new GetQueueAttributesCommand({
              QueueUrl,
              AttributeNames: ["ApproximateNumberOfMessages", "ApproximateNumberOfMessagesNotVisible"],
            }),
          );
          if (
            Number(Attributes?.ApproximateNumberOfMessages) +
              Number(Attributes?.ApproximateNumberOfMessagesNotVisible) >
            0
          )
            return undefined;
        }
        return true;
      },
      60_000,
      "drained us-east-1 queues",
      500,
    );
    const secrets = await new SecretsManagerClient(usEast).send(new ListSecretsCommand({}));
    assert.deepEqual(secrets.SecretList ?? [], []);
    const parameters = await new SSMClient(usEast).send(new DescribeParametersCommand({}));
    assert.deepEqual(parameters.Parameters ?? [], []);
    const logs = await new CloudWatchLogsClient(usEast).send(new DescribeLogGroupsCommand({}));
    assert.deepEqual(logs.logGroups ?? [], []);
    const tables = await new DynamoDBClient(usEast).send(new ListTablesCommand({}));
    assert.deepEqual(tables.TableNames ?? [], []);
    const s3 = new S3Client({ ...usEast, forcePathStyle: true });
    const { Buckets = [] } = await s3.send(new ListBucketsCommand({}));
    const inUsEast: string[] = [];
    for (const b of Buckets) {
      // The emulator is shared with other suites: a bucket listed above may be deleted by now.
      const where = await s3
        .send(new GetBucketLocationCommand({ Bucket: b.Name! }))
        .catch((err: Error) => (err.name === "NoSuchBucket" ? undefined : Promise.reject(err)));
      if (!where) continue;
      // S3 answers no LocationConstraint for us-east-1.
      if (!where.LocationConstraint || String(where.LocationConstraint) === "us-east-1") inUsEast.push(b.Name!);
    }
    assert.deepEqual(inUsEast, []);
  });
});
