import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { CreateSecretCommand, DeleteSecretCommand } from "@aws-sdk/client-secrets-manager";
import { afterAll, describe, it } from "vitest";
import { createAwsClients } from "../aws/clients.ts";
import { recordSecret } from "../testing/secrets.ts";
import { readSecretString } from "./read-secret.ts";

const secrets = createAwsClients({ endpoint: process.env.AWS_ENDPOINT_URL }).data("secretsmanager");
const created: string[] = [];
afterAll(async () => {
  for (const id of created) {
    await secrets.send(new DeleteSecretCommand({ SecretId: id, ForceDeleteWithoutRecovery: true }));
  }
});

async function secret(value: { SecretString: string } | { SecretBinary: Uint8Array }): Promise<string> {
  const name = `t-boot/${randomBytes(5).toString("hex")}/some-key`;
  await secrets.send(new CreateSecretCommand({ Name: name, ...value }));
  created.push(name);
  return name;
}

describe("readSecretString", () => {
  it("returns the string the secret holds", async () => {
    const key = recordSecret(randomBytes(32).toString("base64url"));
    assert.equal(await readSecretString(secrets, await secret({ SecretString: key })), key);
  });

  it("refuses a secret stored as binary, naming the secret", async () => {
    const id = await secret({ SecretBinary: randomBytes(32) });
    await assert.rejects(readSecretString(secrets, id), { message: `secret ${id} has no SecretString` });
  });

  it("rejects when the secret does not exist", async () => {
    await assert.rejects(readSecretString(secrets, `t-boot/${randomBytes(5).toString("hex")}/missing`), {
      name: "ResourceNotFoundException",
    });
  });
});
