import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import { recordSecret } from "@flowstate/shared/testing/secrets";
import { afterAll, beforeAll, describe, it } from "vitest";
import { type Account, type Answer, type E2E, startE2E } from "./e2e-stack.ts";

/**
 * Issue 7, sign-in brute force, through the gateway: failures are counted per e-mail address in
 * identity-svc, so spreading guesses over client addresses does not help; after the free ones the
 * address backs off exponentially (2 s, 4 s, … here; 1 s, 2 s, … by default) with a 429 SIGN_IN_THROTTLED and Retry-After that
 * reads the same whether or not the address has an account; the right password works again once
 * the wait is over. The gateway trusts X-Forwarded-For from loopback here (TRUSTED_PROXIES), which
 * is how each guess below comes "from" another client.
 */
const FREE = 5; // identity-svc's default SIGN_IN_FREE_FAILURES
// Longer than the default 1 s, so that a slow Argon2 verification on a loaded machine cannot outlast a block.
const BASE_MS = 2000;

describe("sign-in backoff per account", () => {
  let e2e: E2E;
  beforeAll(async () => {
    e2e = await startE2E("gw_backoff", { TRUSTED_PROXIES: ["127.0.0.1"] }, undefined, {
      identity: { signInThrottle: { baseMs: BASE_MS } },
    });
  });
  afterAll(() => e2e.close());

  let client = 0;
  /** A sign-in from a client address never used before. */
  const signIn = (email: string, password: string) =>
    e2e.call("POST", "/v1/auth/signin", {
      body: { email, password },
      headers: { "x-forwarded-for": `198.51.${Math.floor(++client / 250)}.${client % 250}` },
    });
  const wrong = () => recordSecret(`wrong-${randomUUID()}`);
  const guessFreely = async (email: string) => {
    for (let i = 0; i < FREE; i++) {
      const res = await signIn(email, wrong());
      assert.equal(res.status, 401, `guess ${i + 1}: ${res.text}`);
      assert.equal(res.json.code, "INVALID_CREDENTIALS");
    }
  };
  /**
   * The refusal with its whole seconds left blanked out: how many of the 2 s remain when each answer
   * is written depends on how long the machine took (1 or 2, asserted separately), not on whether the
   * address has an account, which is what the comparison is about.
   */
  const refusal = (a: Answer) => {
    const { request_id: _, ...body } = a.json;
    assert.ok(["1", "2"].includes(a.headers.get("retry-after") ?? ""), a.headers.get("retry-after") ?? "none");
    const detail = typeof body.detail === "string" ? body.detail.replace(/wait \d+ s/, "wait N s") : body.detail;
    return { status: a.status, retryAfter: "N", body: { ...body, detail } };
  };

  it("slows an address down after the free failures, from any client, the same with or without an account", async () => {
    const victim: Account = await e2e.signUp();
    const nobody = `nobody-${randomUUID()}@example.test`;
    await guessFreely(victim.email);
    // Even the right password, from yet another client, waits its turn.
    const held = await signIn(victim.email, victim.password);
    assert.equal(held.status, 429, `status ${held.status}`);
    assert.equal(held.json.code, "SIGN_IN_THROTTLED");
    // Whole seconds left of the 2 s block (1 if this machine took a second to answer the fifth guess).
    assert.ok(["1", "2"].includes(held.headers.get("retry-after") ?? ""), held.headers.get("retry-after") ?? "none");
    await guessFreely(nobody);
    const heldUnknown = await signIn(nobody, wrong());
    assert.deepEqual(refusal(heldUnknown), refusal(held));

    // After the wait the right password works, and clears the count.
    await sleep(Number(held.headers.get("retry-after")) * 1000 + 100);
    const ok = await signIn(victim.email, victim.password);
    assert.equal(ok.status, 200, `status ${ok.status}`);
    recordSecret(ok.json.access_token);
    recordSecret(ok.json.refresh_token);
    assert.equal((await signIn(victim.email, wrong())).status, 401, "a fresh count after a success");
  });

  it("doubles the wait with each further failure", async () => {
    const user: Account = await e2e.signUp();
    const left = async () => {
      const res = await signIn(user.email, user.password);
      assert.equal(res.status, 429);
      return Number(res.headers.get("retry-after"));
    };
    await guessFreely(user.email); // the fifth failure starts a 2 s block
    const first = await left();
    assert.ok(first >= 1 && first <= 2, `first block: ${first} s left`);
    await sleep(first * 1000 + 100);
    assert.equal((await signIn(user.email, wrong())).status, 401); // the sixth failure: 4 s
    // Longer than the whole first block: the wait doubled (allowing a second for a slow answer).
    const second = await left();
    assert.ok(second >= 3 && second <= 4, `second block: ${second} s left`);
    await sleep(second * 1000 + 100);
    const ok = await signIn(user.email, user.password);
    assert.equal(ok.status, 200, `status ${ok.status}`);
    recordSecret(ok.json.access_token);
    recordSecret(ok.json.refresh_token);
  });
});
