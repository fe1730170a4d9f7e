import assert from "node:assert/strict";
import { recordSecret } from "@flowstate/shared/testing/secrets";
import { decodeJwt } from "jose";
import { afterAll, beforeAll, describe, it } from "vitest";
import { type Harness, startHarness } from "../testing/harness.ts";

/**
 * Recent authentication for account deletion (decisions.md, Consent): a sign-in at most 15
 * minutes old, or the password in the body; otherwise 401 REAUTHENTICATION_REQUIRED saying how.
 * The harness clock is moved forward to age the sign-in.
 */
let h: Harness;
let offsetMs = 0;
beforeAll(async () => {
  h = await startHarness({ prefix: "id_reauth", clock: () => new Date(Date.now() + offsetMs) });
});
afterAll(() => h.close());

const MINUTE = 60_000;
const problem = async (res: Response) =>
  (await res.json()) as { code: string; detail: string; max_age_seconds?: number; signed_in_at?: string };
const later = async <T>(ms: number, fn: () => Promise<T>): Promise<T> => {
  offsetMs = ms;
  try {
    return await fn();
  } finally {
    offsetMs = 0;
  }
};

describe("deleting your own account", () => {
  it("works with a sign-in at most 15 minutes old, and the token says when that was (auth_time)", async () => {
    const u = await h.signUp();
    const claims = decodeJwt(u.tokens.access_token);
    assert.ok(Math.abs((claims.auth_time as number) - (claims.iat as number)) <= 1);
    const res = await later(14 * MINUTE, () => h.call("DELETE", "/v1/users/me", { as: u.identity }));
    assert.equal(res.status, 200);
  });

  it("refuses an older sign-in with 401 REAUTHENTICATION_REQUIRED saying how, and then takes the password", async () => {
    const u = await h.signUp();
    await later(16 * MINUTE, async () => {
      const stale = await h.call("DELETE", "/v1/users/me", { as: u.identity });
      assert.equal(stale.status, 401);
      const p = await problem(stale);
      assert.equal(p.code, "REAUTHENTICATION_REQUIRED");
      assert.equal(p.max_age_seconds, 900);
      assert.ok(p.signed_in_at);
      assert.match(p.detail, /sign in again/);
      assert.match(p.detail, /"password"/);
      const wrong = await h.call("DELETE", "/v1/users/me", {
        as: u.identity,
        body: { password: recordSecret("not-the-password") },
      });
      assert.equal(wrong.status, 401);
      assert.equal((await problem(wrong)).code, "INVALID_CREDENTIALS");
      assert.equal((await h.call("GET", "/v1/users/me", { as: u.identity })).status, 200, "nothing deleted");
      const right = await h.call("DELETE", "/v1/users/me", { as: u.identity, body: { password: u.password } });
      assert.equal(right.status, 200);
    });
  });

  it("does not count a refresh as a sign-in: the refreshed token carries the original auth_time", async () => {
    const u = await h.signUp();
    await later(16 * MINUTE, async () => {
      const res = await h.call("POST", "/v1/auth/refresh", { body: { refresh_token: u.tokens.refresh_token } });
      assert.equal(res.status, 200);
      const tokens = (await res.json()) as { access_token: string; refresh_token: string };
      recordSecret(tokens.access_token);
      recordSecret(tokens.refresh_token);
      assert.equal(decodeJwt(tokens.access_token).auth_time, decodeJwt(u.tokens.access_token).auth_time);
      const refused = await h.call("DELETE", "/v1/users/me", { as: u.identity });
      assert.equal((await problem(refused)).code, "REAUTHENTICATION_REQUIRED");
      // A new sign-in is recent again.
      const fresh = await h.call("POST", "/v1/auth/signin", { body: { email: u.email, password: u.password } });
      const sid = decodeJwt(((await fresh.json()) as { access_token: string }).access_token).sid as string;
      const ok = await h.call("DELETE", "/v1/users/me", { as: { kind: "user", sub: u.sub, sid } });
      assert.equal(ok.status, 200);
    });
  });

  it("counts wrong passwords against the sign-in backoff, so a stolen token is no way around it", async () => {
    const u = await h.signUp();
    await later(16 * MINUTE, async () => {
      const statuses: number[] = [];
      for (let i = 0; i < 6; i++) {
        const res = await h.call("DELETE", "/v1/users/me", { as: u.identity, body: { password: `guess-${i}-xxxx` } });
        statuses.push(res.status);
      }
      assert.deepEqual(statuses, [401, 401, 401, 401, 401, 429]);
    });
  });

  it("refuses a body that is not {password}", async () => {
    const u = await h.signUp();
    const res = await h.call("DELETE", "/v1/users/me", { as: u.identity, body: { confirm: true } });
    assert.equal(res.status, 400);
    assert.equal((await problem(res)).code, "VALIDATION_FAILED");
  });
});
