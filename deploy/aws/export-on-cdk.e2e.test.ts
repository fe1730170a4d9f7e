import assert from "node:assert/strict";
import { gatewayCaller } from "@flowstate/connector-svc/testing/gateway-caller";
import { createAwsClients } from "@flowstate/shared/aws/clients";
import { waitFor } from "@flowstate/shared/consumer/test-events";
import { afterAll, beforeAll, describe, it } from "vitest";
import { MOTO_DEFAULT_ACCOUNT_ID } from "../connector-role/moto-account.ts";
import { bootstrap } from "../local/bootstrap.ts";
import { BOOTSTRAP_CLIENTS, bucketName } from "../local/definition.ts";
import { type Moto, startMoto } from "../local/moto.ts";
import { ensureDatabase } from "../local/postgres.ts";
import { type LaunchedStack, launchStack } from "../local/stack-process.ts";
import { deployDataStacksIntoMoto } from "./moto-deploy.ts";
import { synthesize } from "./synth.ts";

/**
 * Issue 23: the messaging and storage stacks, deployed into moto's CloudFormation, are what the
 * system then runs on. A moto of this file's own gets the two stacks; the bootstrap that `npm start`
 * runs finds every bus, rule, queue, bucket, key and secret (the keys per caller included) already
 * there (it creates none of them) and only adds what those stacks do not hold (the SES identity,
 * policies moto's CloudFormation leaves out); a user's export then goes through the whole path: request, build into
 * the CDK's bucket under the CDK's key, the event over the CDK's bus and queue, ready, download.
 */
const prefix = "cdkexp";
const stage = "dev";
const mailFrom = "no-reply@cdkexp.example";
const database = "flowstate_cdkexp";
const databaseUrl = (process.env.DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/flowstate_test").replace(
  /\/[^/]*$/,
  `/${database}`,
);

let moto: Moto;
let stack: LaunchedStack;
let changes: string[];

beforeAll(async () => {
  moto = await startMoto();
  const synth = synthesize({ settings: { prefix, stage, account: MOTO_DEFAULT_ACCOUNT_ID, mailFrom } });
  await deployDataStacksIntoMoto(synth, moto.endpoint);
  // What `npm start`'s bootstrap does on these resources, read before it runs (it is idempotent).
  ({ changes } = await bootstrap({
    aws: createAwsClients({
      endpoint: moto.endpoint,
      allowed: BOOTSTRAP_CLIENTS,
      credentials: { accessKeyId: "testing", secretAccessKey: "testing" },
    }),
    prefix,
    stage,
    mailFrom,
  }));
  await ensureDatabase(databaseUrl);
  stack = await launchStack(
    {
      AWS_ENDPOINT_URL: moto.endpoint,
      AWS_ACCESS_KEY_ID: "testing",
      AWS_SECRET_ACCESS_KEY: "testing",
      SERVICE_PREFIX: prefix,
      STAGE: stage,
      MAIL_FROM: mailFrom,
      DATABASE_URL: databaseUrl,
      LOG_LEVEL: "warn",
      FLOWSTATE_HEALTH_TIMEOUT_SECONDS: "240",
    },
    420_000,
  );
}, 600_000);

afterAll(async () => {
  await stack?.stop();
  await moto?.stop();
});

describe("the system on what the CDK's messaging and storage stacks created", () => {
  it("needs no bus, rule, queue, bucket or key of the bootstrap's own", () => {
    const eu = changes.filter((c) => !/partner-inbound|partner-\d/.test(c));
    for (const c of eu) assert.doesNotMatch(c, /^(created (bus|event bus|queue|bucket|KMS key|rule)|put rule)/, c);
  });

  it("runs a user's export to a downloaded archive", async () => {
    const gateway = gatewayCaller(stack.services["edge-gateway"]!.url);
    const { token } = await gateway.signUp();
    const requested = await gateway.expect("POST", "/v1/users/me/export", 202, { token });
    const jobId = requested.json.job_id as string;
    let last = { status: 0, text: "" };
    await waitFor(
      async () => {
        const res = await gateway.call("GET", `/v1/users/me/export/${jobId}`, { token });
        last = res;
        return res.status === 200 && res.json.status === "ready";
      },
      120_000,
      () => `export ${jobId} ready; last answer ${last.status} ${last.text}`,
      250,
    );
    const ready = JSON.parse(last.text) as { download_url: string };
    const bucket = bucketName({ prefix, stage, accountId: MOTO_DEFAULT_ACCOUNT_ID }, "exports");
    assert.equal(new URL(ready.download_url).pathname.split("/")[1], bucket, "the CDK's exports bucket");
    const file = await fetch(ready.download_url);
    assert.equal(file.status, 200);
    const zip = new Uint8Array(await file.arrayBuffer());
    assert.deepEqual([...zip.subarray(0, 4)], [0x50, 0x4b, 0x03, 0x04], "a zip archive");
  });
});
