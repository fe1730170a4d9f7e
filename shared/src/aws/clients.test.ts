import assert from "node:assert/strict";
import { ListStacksCommand } from "@aws-sdk/client-cloudformation";
import { ListEventBusesCommand } from "@aws-sdk/client-eventbridge";
import { ListRolesCommand } from "@aws-sdk/client-iam";
import { ListKeysCommand } from "@aws-sdk/client-kms";
import { SearchAgreementsCommand } from "@aws-sdk/client-marketplace-agreement";
import { ListEntitiesCommand } from "@aws-sdk/client-marketplace-catalog";
import { ListBucketsCommand } from "@aws-sdk/client-s3";
import { ListSecretsCommand } from "@aws-sdk/client-secrets-manager";
import { GetAccountCommand } from "@aws-sdk/client-sesv2";
import { ListQueuesCommand } from "@aws-sdk/client-sqs";
import { GetCallerIdentityCommand } from "@aws-sdk/client-sts";
import { describe, it } from "vitest";
import {
  createAwsClients,
  DATA_CLIENT_NAMES,
  DATA_REGION,
  type DataClientName,
  MARKETPLACE_CLIENT_NAMES,
  MARKETPLACE_REGION,
  type MarketplaceClientName,
  PARTNER_CLIENT_NAMES,
  PARTNER_REGION,
  type PartnerClientName,
  ResidencyViolation,
} from "./clients.ts";

const credentials = { accessKeyId: "testing", secretAccessKey: "testing" };

/** One cheap command per client, to see where a real request would go without sending it. */
const probe = {
  cloudformation: new ListStacksCommand({}),
  eventbridge: new ListEventBusesCommand({}),
  iam: new ListRolesCommand({}),
  kms: new ListKeysCommand({}),
  s3: new ListBucketsCommand({}),
  secretsmanager: new ListSecretsCommand({}),
  sesv2: new GetAccountCommand({}),
  sqs: new ListQueuesCommand({}),
  sts: new GetCallerIdentityCommand({}),
  "marketplace-catalog": new ListEntitiesCommand({ Catalog: "AWSMarketplace", EntityType: "SaaSProduct" }),
  "marketplace-agreement": new SearchAgreementsCommand({}),
  "seller-sts": new GetCallerIdentityCommand({}),
  "partner-eventbridge": new ListEventBusesCommand({}),
  "partner-sqs": new ListQueuesCommand({}),
};

class Captured extends Error {
  readonly host: string;
  readonly scope: string;
  constructor(host: string, scope: string) {
    super("captured");
    this.host = host;
    this.scope = scope;
  }
}

/** Sends `command` through `client` but stops after signing: returns the host and the SigV4 credential scope. */
async function destinationOf(
  client: { send(c: unknown): Promise<unknown>; middlewareStack: unknown },
  command: unknown,
) {
  const stack = client.middlewareStack as { add(mw: unknown, options: object): void };
  stack.add(
    () => async (args: { request: { hostname: string; headers: Record<string, string> } }) => {
      const scope = args.request.headers.authorization?.match(/Credential=[^/]+\/\d+\/([^/]+\/[^/]+)\//)?.[1] ?? "";
      throw new Captured(args.request.hostname, scope);
    },
    { step: "finalizeRequest", priority: "low", name: `capture-${Math.random()}` },
  );
  const err = await client.send(command).then(
    () => assert.fail("the request should have been captured"),
    (e: unknown) => e,
  );
  assert.ok(err instanceof Captured, String(err));
  return err;
}

describe("AWS client factory", () => {
  it("lists exactly the clients this test knows about, so a new one cannot slip in unreviewed", () => {
    assert.deepEqual([...DATA_CLIENT_NAMES].sort(), [
      "cloudformation",
      "eventbridge",
      "iam",
      "kms",
      "s3",
      "secretsmanager",
      "sesv2",
      "sqs",
      "sts",
    ]);
    assert.deepEqual([...MARKETPLACE_CLIENT_NAMES].sort(), [
      "marketplace-agreement",
      "marketplace-catalog",
      "seller-sts",
    ]);
    assert.deepEqual([...PARTNER_CLIENT_NAMES].sort(), ["partner-eventbridge", "partner-sqs"]);
  });

  it("builds every data client in eu-central-1, even when AWS_REGION says otherwise", async () => {
    const previous = process.env.AWS_REGION;
    process.env.AWS_REGION = "us-west-2";
    try {
      const aws = createAwsClients({ credentials });
      for (const name of DATA_CLIENT_NAMES) {
        assert.equal(await aws.data(name).config.region(), DATA_REGION, name);
      }
    } finally {
      if (previous === undefined) delete process.env.AWS_REGION;
      else process.env.AWS_REGION = previous;
    }
  });

  it("sends every data request to an eu-central-1 endpoint signed for eu-central-1 (IAM is global by AWS design)", async () => {
    const aws = createAwsClients({ credentials });
    for (const name of DATA_CLIENT_NAMES) {
      const { host, scope } = await destinationOf(aws.data(name), probe[name]);
      if (name === "iam") {
        // IAM has one global endpoint whose control plane is us-east-1; it stores no Flowstate data.
        assert.equal(host, "iam.amazonaws.com");
        continue;
      }
      assert.match(host, /(^|\.)eu-central-1\.amazonaws\.com$/, `${name} → ${host}`);
      assert.match(scope, /^eu-central-1\//, `${name} signed for ${scope}`);
    }
  });

  it("builds the marketplace clients in us-east-1 and sends their requests there", async () => {
    const aws = createAwsClients({ credentials });
    for (const name of MARKETPLACE_CLIENT_NAMES) {
      const client = aws.marketplace(name);
      assert.equal(await client.config.region(), MARKETPLACE_REGION, name);
      const { host, scope } = await destinationOf(client, probe[name]);
      assert.match(host, /(^|\.)us-east-1\.amazonaws\.com$/, `${name} → ${host}`);
      assert.match(scope, /^us-east-1\//, `${name} signed for ${scope}`);
    }
  });

  it("builds the partner-inbound clients in us-east-1, sends their requests there and caches them", async () => {
    const aws = createAwsClients({ credentials });
    for (const name of PARTNER_CLIENT_NAMES) {
      const client = aws.partner(name);
      assert.equal(client, aws.partner(name));
      assert.equal(await client.config.region(), PARTNER_REGION, name);
      const { host, scope } = await destinationOf(client, probe[name]);
      assert.match(host, /(^|\.)us-east-1\.amazonaws\.com$/, `${name} → ${host}`);
      assert.match(scope, /^us-east-1\//, `${name} signed for ${scope}`);
    }
    for (const name of [...DATA_CLIENT_NAMES, ...MARKETPLACE_CLIENT_NAMES, "constructor", "__proto__", "s3"]) {
      assert.throws(() => aws.partner(name as PartnerClientName), ResidencyViolation, `partner(${name})`);
    }
  });

  it("refuses a region option, however it is smuggled in", () => {
    assert.throws(() => createAwsClients({ region: "us-west-2" } as never), ResidencyViolation);
    assert.throws(
      () => createAwsClients({ endpoint: undefined, ...{ region: undefined } } as never),
      ResidencyViolation,
    );
  });

  it("refuses every other name for a data or marketplace client, including through casts", () => {
    const aws = createAwsClients({ credentials });
    const intruders = [
      ...MARKETPLACE_CLIENT_NAMES, // a marketplace client is never a data client …
      "constructor",
      "toString",
      "__proto__",
      "hasOwnProperty",
      "valueOf",
      "",
      "SQS",
      "dynamodb",
      "sts-us-west-2",
    ];
    for (const name of intruders) {
      assert.throws(() => aws.data(name as DataClientName), ResidencyViolation, `data(${JSON.stringify(name)})`);
    }
    for (const name of [
      ...DATA_CLIENT_NAMES.filter((n) => n !== "sts"),
      "sts",
      "constructor",
      "__proto__",
      "toString",
    ]) {
      // … and a data client is never a us-east-1 client ("sts" there would be Flowstate's own STS).
      assert.throws(() => aws.marketplace(name as MarketplaceClientName), ResidencyViolation, `marketplace(${name})`);
    }
  });

  it("applies the endpoint overrides: the emulator for data clients, the seller sandbox for marketplace ones", async () => {
    const aws = createAwsClients({
      endpoint: "http://127.0.0.1:4566",
      marketplaceEndpoint: "http://127.0.0.1:8090",
      credentials,
    });
    for (const name of DATA_CLIENT_NAMES) {
      const { host } = await destinationOf(aws.data(name), probe[name]);
      assert.equal(host, "127.0.0.1", name);
      assert.equal((await aws.data(name).config.endpoint?.())?.port, 4566, name);
    }
    for (const name of MARKETPLACE_CLIENT_NAMES) {
      const client = aws.marketplace(name);
      assert.equal((await client.config.endpoint?.())?.port, 8090, name);
      assert.equal(await client.config.region(), MARKETPLACE_REGION);
    }
  });

  // Skipped without AWS_ENDPOINT_URL (the global set-up sets it; the guard is for running the file without it).
  it.skipIf(!process.env.AWS_ENDPOINT_URL)("talks to the local emulator through the override", async () => {
    const aws = createAwsClients({ endpoint: process.env.AWS_ENDPOINT_URL, credentials });
    const identity = await aws.data("sts").send(new GetCallerIdentityCommand({}));
    assert.match(identity.Account ?? "", /^\d{12}$/);
  });

  it("caches data clients but builds marketplace clients per call (each carries a tenant's credentials)", () => {
    const aws = createAwsClients({ credentials });
    assert.equal(aws.data("sqs"), aws.data("sqs"));
    assert.notEqual(aws.marketplace("marketplace-catalog"), aws.marketplace("marketplace-catalog"));
  });
});
