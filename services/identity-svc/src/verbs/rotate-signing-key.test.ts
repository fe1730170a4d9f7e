import assert from "node:assert/strict";
import { recordSecret } from "@flowstate/shared/testing/secrets";
import { createLocalJWKSet, decodeProtectedHeader, jwtVerify } from "jose";
import { afterAll, beforeAll, describe, it } from "vitest";
import { type Harness, startHarness } from "../testing/harness.ts";
import { rotateSigningKey } from "./rotate-signing-key.ts";

let h: Harness;
let clock = Date.now();
const ACTIVATION_S = 600;
beforeAll(async () => {
  h = await startHarness({
    prefix: "id_rotate",
    clock: () => new Date(clock),
    keyActivationDelaySeconds: ACTIVATION_S,
  });
});
afterAll(() => h.close());

const jwks = async () => (await (await h.call("GET", "/.well-known/jwks.json")).json()) as { keys: { kid: string }[] };
const signIn = async (email: string, password: string) => {
  const tokens = (await (await h.call("POST", "/v1/auth/signin", { body: { email, password } })).json()) as {
    access_token: string;
  };
  return recordSecret(tokens.access_token);
};
const verifies = async (token: string, keys: unknown, at: number) => {
  try {
    await jwtVerify(token, createLocalJWKSet(keys as never), { currentDate: new Date(at), audience: "flowstate-test" });
    return true;
  } catch {
    return false;
  }
};

describe("rotateSigningKey through the running app", () => {
  it("publishes the new key first, signs with it only after the delay, and keeps old tokens verifiable", async () => {
    const u = await h.signUp();
    const oldKid = decodeProtectedHeader(u.tokens.access_token).kid!;
    // The periodic check leaves a young key alone.
    const DAY = 24 * 3600_000;
    assert.equal((await rotateSigningKey({ ctx: h.ctx({ kind: "system" }), ifOlderThanMs: 30 * DAY })).rotated, false);

    const r = await rotateSigningKey({ ctx: h.ctx({ kind: "system" }) });
    assert.equal(r.rotated, true);
    assert.notEqual(r.kid, oldKid);
    assert.deepEqual((await jwks()).keys.map((k) => k.kid).sort(), [oldKid, r.kid].sort(), "both published");
    // A concurrent or repeated rotation while one is pending changes nothing.
    assert.equal((await rotateSigningKey({ ctx: h.ctx({ kind: "system" }) })).rotated, false);

    const beforeSwitch = await signIn(u.email, u.password);
    assert.equal(decodeProtectedHeader(beforeSwitch).kid, oldKid, "the old key still signs during the delay");

    clock += ACTIVATION_S * 1000;
    const afterSwitch = await signIn(u.email, u.password);
    assert.equal(decodeProtectedHeader(afterSwitch).kid, r.kid, "the new key signs after the delay");
    const published = await jwks();
    assert.equal(await verifies(beforeSwitch, published, clock), true, "a token of the previous key still verifies");
    assert.equal(await verifies(afterSwitch, published, clock), true);

    clock += (900 + 60) * 1000;
    assert.deepEqual(
      (await jwks()).keys.map((k) => k.kid),
      [r.kid],
      "the old key retires once its tokens expired",
    );

    // A month on, the periodic check starts the next rotation.
    clock += 31 * DAY;
    assert.equal((await rotateSigningKey({ ctx: h.ctx({ kind: "system" }), ifOlderThanMs: 30 * DAY })).rotated, true);
  });

  it("a replica that reloads the key set sees the same keys (one secret, many readers)", async () => {
    const before = h.deps.keyring.current().keys.map((k) => k.kid);
    await h.deps.keyring.reload();
    assert.deepEqual(
      h.deps.keyring.current().keys.map((k) => k.kid),
      before,
    );
    const fromStore = (await h.deps.keyStore.load()).keys.map((k) => k.kid);
    assert.deepEqual(fromStore, before);
  });
});
