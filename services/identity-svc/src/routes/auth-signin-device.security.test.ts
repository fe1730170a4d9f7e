import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { recordSecret } from "@flowstate/shared/testing/secrets";
import { afterAll, beforeAll, describe, it } from "vitest";
import { type Harness, startHarness } from "../testing/harness.ts";

/**
 * Issue 20 finding 7: a stranger's wrong guesses must not lock the owner out. OWASP's device
 * cookies: a client that signed in before presents its device token and is throttled on its own;
 * a client without one is throttled per account exactly as before.
 */
let h: Harness;
beforeAll(async () => {
  // A block long enough that no test outlives it by accident.
  h = await startHarness({ prefix: "id_signin_dev", signInThrottle: { baseMs: 60_000 } });
});
afterAll(() => h.close());

const FREE = 5;
const wrong = () => recordSecret(`wrong-${randomUUID()}`);
const signIn = async (body: { email: string; password: string; device_token?: string }) => {
  const res = await h.call("POST", "/v1/auth/signin", { body });
  const json = (await res.json()) as Record<string, unknown>;
  for (const k of ["access_token", "refresh_token", "device_token"])
    if (typeof json[k] === "string") recordSecret(json[k]);
  return { status: res.status, json };
};
/** The owner signs in once (gets her device token), then a stranger guesses until the account is held. */
const lockedOutByStranger = async () => {
  const owner = await h.signUp();
  const first = await signIn({ email: owner.email, password: owner.password });
  assert.equal(first.status, 200);
  for (let i = 0; i < FREE; i++) assert.equal((await signIn({ email: owner.email, password: wrong() })).status, 401);
  const held = await signIn({ email: owner.email, password: owner.password });
  assert.equal(held.status, 429, "the account is held for clients without a device token");
  assert.equal(held.json.code, "SIGN_IN_THROTTLED");
  return { owner, device: first.json.device_token as string };
};

describe("sign-in with a device token (OWASP device cookies)", () => {
  it("lets the owner in with her device token while a stranger's guesses hold the account", async () => {
    const { owner, device } = await lockedOutByStranger();
    assert.equal(typeof device, "string", "a successful sign-in hands out a device token");
    const ok = await signIn({ email: owner.email, password: owner.password, device_token: device });
    assert.equal(ok.status, 200, JSON.stringify(ok.json));
    // A fresh token replaces the one presented, and the old one stops counting as a device.
    assert.equal(typeof ok.json.device_token, "string");
    assert.notEqual(ok.json.device_token, device);
    const again = await signIn({ email: owner.email, password: owner.password, device_token: device });
    assert.equal(again.status, 429, "a replaced device token is no longer trusted");
    // Still held for everyone else: the owner's success on her device does not reset the stranger's count.
    assert.equal((await signIn({ email: owner.email, password: owner.password })).status, 429);
  });

  it("gives no exemption for another account's device token, nor for a made-up one", async () => {
    const { owner } = await lockedOutByStranger();
    const other = await h.signUp();
    const stolen = (await signIn({ email: other.email, password: other.password })).json.device_token as string;
    const withStolen = await signIn({ email: owner.email, password: owner.password, device_token: stolen });
    assert.equal(withStolen.status, 429);
    const madeUp = await signIn({
      email: owner.email,
      password: owner.password,
      device_token: `dvt_${"A".repeat(43)}`,
    });
    assert.equal(madeUp.status, 429);
  });

  it("locks only the device token that keeps failing", async () => {
    const owner = await h.signUp();
    const tokenA = (await signIn({ email: owner.email, password: owner.password })).json.device_token as string;
    const tokenB = (await signIn({ email: owner.email, password: owner.password })).json.device_token as string;
    for (let i = 0; i < FREE; i++) {
      const res = await signIn({ email: owner.email, password: wrong(), device_token: tokenA });
      assert.equal(res.status, 401, `guess ${i + 1}`);
    }
    const heldA = await signIn({ email: owner.email, password: owner.password, device_token: tokenA });
    assert.equal(heldA.status, 429, "the failing device is held");
    assert.equal(heldA.json.code, "SIGN_IN_THROTTLED");
    // The other device and clients without a token are untouched by those failures.
    assert.equal((await signIn({ email: owner.email, password: owner.password, device_token: tokenB })).status, 200);
    assert.equal((await signIn({ email: owner.email, password: owner.password })).status, 200);
  });

  it("keys the throttle rows by an HMAC of the address, never the address itself", async () => {
    const email = `Someone-${randomUUID()}@Example.test`;
    await signIn({ email, password: wrong() });
    const rows = await h.db.orm.em
      .fork()
      .execute<{ email_key: string }[]>(`SELECT email_key FROM "${h.db.schema}".sign_in_throttle`);
    assert.ok(rows.length > 0);
    for (const r of rows) assert.ok(!r.email_key.includes("@"), `plaintext key ${r.email_key}`);
    // The same address however it is written counts once.
    const before = rows.length;
    await signIn({ email: ` ${email.toLowerCase()} `.trim(), password: wrong() });
    const after = await h.db.orm.em.fork().execute(`SELECT 1 FROM "${h.db.schema}".sign_in_throttle`);
    assert.equal(after.length, before);
  });
});
