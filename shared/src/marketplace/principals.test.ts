import assert from "node:assert/strict";
import { describe, it } from "vitest";
import { createAwsClients } from "../aws/clients.ts";
import { chainedPrincipalCredentials, principalArn, principalForChannel } from "./principals.ts";

describe("Flowstate's principals", () => {
  it("follow the signed channel: rest → backend, mcp → mcp-execution, none → refused", () => {
    assert.equal(principalForChannel("rest"), "backend");
    assert.equal(principalForChannel("mcp"), "mcp-execution");
    assert.throws(() => principalForChannel(undefined), /channel/);
  });

  it("are the configured roles of Flowstate's account", () => {
    const names = { accountId: "111122223333", prefix: "flowstate", stage: "prod" };
    assert.equal(principalArn(names, "mcp-execution"), "arn:aws:iam::111122223333:role/flowstate-prod-mcp-execution");
  });

  it("are assumed from the default chain in production, with an expiry the SDK refreshes before", async () => {
    // moto's STS answers AssumeRole into any role of any account: it stands for the services' own role here.
    const sts = createAwsClients({
      endpoint: process.env.AWS_ENDPOINT_URL,
      credentials: { accessKeyId: "testing", secretAccessKey: "testing" },
    }).data("sts");
    const principals = chainedPrincipalCredentials(sts, {
      accountId: "123456789012",
      prefix: "flowstate",
      stage: "prod",
    });
    const provider = principals["mcp-execution"];
    assert.equal(typeof provider, "function");
    const credentials = await (provider as () => Promise<{ accessKeyId: string; expiration?: Date }>)();
    assert.ok(credentials.accessKeyId);
    assert.ok(credentials.expiration instanceof Date && credentials.expiration.getTime() > Date.now());
  });
});
