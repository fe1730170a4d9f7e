import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { GetSecretValueCommand, PutSecretValueCommand } from "@aws-sdk/client-secrets-manager";
import { bodyless } from "@flowstate/shared/auth/identity-assertion";
import { Keyring, keyringVerifier, PairSecret, serviceSigner } from "@flowstate/shared/auth/keyring";
import { createAwsClients } from "@flowstate/shared/aws/clients";
import { startKeyring } from "@flowstate/shared/boot/keyring-loader";
import { createLogger } from "@flowstate/shared/log/logger";
import { afterAll, beforeAll, describe, it } from "vitest";
import { ensureKeyPairs } from "./apply/key-pairs.ts";
import { ensureDataKey } from "./apply/kms.ts";
import { defineStack } from "./definition.ts";
import { rotateKeys } from "./rotate-keys.ts";

/**
 * Keys per caller on the emulator, end to end (ADR 0014): the bootstrap's pair secrets, the
 * processes' keyrings read from them, and `npm run keys:rotate` with two valid keys at a time.
 */
const aws = createAwsClients({ endpoint: process.env.AWS_ENDPOINT_URL });
const prefix = `kr${randomBytes(4).toString("hex")}`;
const def = defineStack({ prefix, stage: "dev", accountId: "000000000000", mailFrom: "x@y.z" }, []);
const logger = createLogger({ service: "rotate-test", level: "silent" });
const source = { secrets: aws.data("secretsmanager"), prefix, stage: "dev", logger, handleSignals: false };
const PAIR = "partner-inbound--connector-svc";
let keys: Awaited<ReturnType<typeof startKeyring>>[] = [];

beforeAll(async () => {
  const ctx = { aws, changes: [] as string[] };
  const keyArn = await ensureDataKey(ctx, `alias/${prefix}-dev-data`);
  await ensureKeyPairs(ctx, def.keyMaster, def.keyPairs, keyArn);
  assert.equal(ctx.changes.filter((c) => c.includes("/keys/")).length, def.keyPairs.length);
  const again = { aws, changes: [] as string[] };
  await ensureKeyPairs(again, def.keyMaster, def.keyPairs, keyArn);
  assert.deepEqual(again.changes, [], "a second run creates nothing and overwrites nothing");
});
afterAll(() => {
  for (const k of keys) k.stop();
});

const pairValue = async (id: string) =>
  PairSecret.parse(
    JSON.parse(
      (await aws.data("secretsmanager").send(new GetSecretValueCommand({ SecretId: `${prefix}/dev/keys/${id}` })))
        .SecretString!,
    ),
  );

describe("keys per caller on Secrets Manager", () => {
  it("gives each pair its own generation-1 key, and each process only its own pairs", async () => {
    const a = await pairValue(PAIR);
    const b = await pairValue("gateway--connector-svc");
    assert.equal(a.current.generation, 1);
    assert.equal(a.previous, undefined);
    assert.notEqual(a.current.key, b.current.key);
    const partner = await startKeyring({ ...source, service: "partner-inbound" });
    keys.push(partner);
    assert.deepEqual(partner.keyring.ids(), [PAIR]);
  });

  it("accepts a caller signing with the old key during a rotation, and refuses it after the next one", async () => {
    const partner = await startKeyring({ ...source, service: "partner-inbound" });
    const connector = await startKeyring({ ...source, service: "connector-svc" });
    keys = [...keys, partner, connector];
    const sign = serviceSigner(partner.keyring, "connector-svc");
    const verify = keyringVerifier(connector.keyring);
    // What a caller that never reloads keeps signing with: generation 1.
    const frozen = serviceSigner(
      new Keyring("partner-inbound", new Map([[PAIR, await pairValue(PAIR)]])),
      "connector-svc",
    );
    const call = (n: number) => bodyless("GET", `/internal/v1/marketplace-connectors?n=${n}`);
    assert.equal(verify(call(0), sign(call(0)))?.assertion.identity.kind, "service");

    assert.deepEqual(await rotateKeys({ aws, prefix, stage: "dev", pairs: [PAIR] }), [`${PAIR}: generation 1 → 2`]);
    // The callee reloads first; the caller has not yet: its old key is still accepted.
    await connector.reload();
    assert.ok(verify(call(1), sign(call(1))), "generation 1 during the rotation window");
    // The caller reloads: it signs with generation 2, accepted.
    await partner.reload();
    assert.notEqual(sign(call(2)).split(".").at(-1), frozen(call(2)).split(".").at(-1));
    assert.ok(verify(call(2), sign(call(2))), "generation 2");

    assert.deepEqual(
      await rotateKeys({ aws, prefix, stage: "dev" }),
      def.keyPairs.map((p) => (p.pairId === PAIR ? `${PAIR}: generation 2 → 3` : `${p.pairId}: generation 1 → 2`)),
    );
    await connector.reload();
    // Generation 1 is gone (current 3, previous 2): refused as not genuine (401); generation 2 still taken.
    assert.equal(verify(call(3), frozen(call(3))), null, "generation 1 after the next rotation");
    assert.ok(verify(call(4), sign(call(4))), "generation 2 while it is the previous key");
  });

  it("loads and rotates a first generation as the CDK storage stack has Secrets Manager generate it", async () => {
    // deploy/aws/stacks/storage.ts: `{"generation": 1, "key": <random>}`, flat, not derived from the master.
    const pair = "offers-svc--connector-svc";
    const generated = randomBytes(32).toString("base64url");
    await aws.data("secretsmanager").send(
      new PutSecretValueCommand({
        SecretId: `${prefix}/dev/keys/${pair}`,
        SecretString: JSON.stringify({ generation: 1, key: generated }),
      }),
    );
    const offers = await startKeyring({ ...source, service: "offers-svc" });
    keys.push(offers);
    assert.deepEqual(offers.keyring.pair(pair), { current: { generation: 1, key: generated } });
    const before = serviceSigner(offers.keyring, "connector-svc");
    const b = bodyless("GET", "/internal/v1/tenants/tnt_0123456789abcdefghij/marketplace-connector");
    const header = before(b);
    await rotateKeys({ aws, prefix, stage: "dev", pairs: [pair] });
    const rotated = await pairValue(pair);
    assert.equal(rotated.current.generation, 2);
    assert.deepEqual(rotated.previous, { generation: 1, key: generated });
    const connector = await startKeyring({ ...source, service: "connector-svc" });
    keys.push(connector);
    assert.ok(keyringVerifier(connector.keyring)(b, header), "the generated key is still accepted as the previous one");
  });
});
