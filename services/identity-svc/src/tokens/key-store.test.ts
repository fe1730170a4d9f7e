import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { DeleteSecretCommand, GetSecretValueCommand } from "@aws-sdk/client-secrets-manager";
import { createAwsClients } from "@flowstate/shared/aws/clients";
import { describe, it } from "vitest";
import { secretsManagerKeyStore } from "./key-store.ts";

const secrets = createAwsClients({ endpoint: process.env.AWS_ENDPOINT_URL }).data("secretsmanager");

describe("the signing key store in Secrets Manager", () => {
  it("creates one key set when several replicas boot at once, and all of them read that one", async () => {
    const id = `test/${randomUUID()}/identity/signing-keys`;
    try {
      const sets = await Promise.all(Array.from({ length: 4 }, () => secretsManagerKeyStore(secrets, id).load()));
      const kids = new Set(sets.map((s) => s.keys[0]!.kid));
      assert.equal(kids.size, 1, "every replica signs with the same first key");
      const stored = await secrets.send(new GetSecretValueCommand({ SecretId: id }));
      assert.equal(JSON.parse(stored.SecretString!).keys[0].kid, [...kids][0]);
      assert.ok(JSON.parse(stored.SecretString!).keys[0].private_jwk.d, "the private key is kept in the secret");
    } finally {
      await secrets.send(new DeleteSecretCommand({ SecretId: id, ForceDeleteWithoutRecovery: true }));
    }
  });
});
