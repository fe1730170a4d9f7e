import assert from "node:assert/strict";
import { recordSecret } from "@flowstate/shared/testing/secrets";
import { createLocalJWKSet, decodeProtectedHeader, jwtVerify } from "jose";
import { afterAll, beforeAll, describe, it } from "vitest";
import { type Harness, invalidationsOf, startHarness } from "../testing/harness.ts";

let h: Harness;
beforeAll(async () => {
  h = await startHarness({ prefix: "id_auth" });
});
afterAll(() => h.close());

describe("sign-up, sign-in, refresh and sign-out", () => {
  it("signs a user up and in, with an ES256 access token that verifies against the JWKS", async () => {
    const u = await h.signUp();
    assert.match(u.sub, /^usr_[0-9A-Za-z]{22}$/);
    assert.equal(u.tokens.token_type, "Bearer");
    assert.equal(u.tokens.expires_in, 900);
    const jwks = await (await h.call("GET", "/.well-known/jwks.json")).json();
    const header = decodeProtectedHeader(u.tokens.access_token);
    assert.equal(header.alg, "ES256");
    assert.ok(header.kid);
    const { payload } = await jwtVerify(u.tokens.access_token, createLocalJWKSet(jwks), {
      issuer: "https://identity.test",
      audience: "flowstate-test",
    });
    assert.equal(payload.sub, u.sub);
    assert.equal(payload.sid, u.sid);
    assert.equal((payload.exp ?? 0) - (payload.iat ?? 0), 900);
    assert.equal(JSON.stringify(payload).includes(u.email), false, "no e-mail in the token");
  });

  it("matches e-mail addresses case-insensitively at sign-in", async () => {
    const u = await h.signUp();
    const res = await h.call("POST", "/v1/auth/signin", {
      body: { email: u.email.toUpperCase(), password: u.password },
    });
    assert.equal(res.status, 200);
    recordSecret(((await res.json()) as { access_token: string }).access_token);
  });

  it("rotates refresh tokens: the new one works once, and the session stays the same", async () => {
    const u = await h.signUp();
    const res = await h.call("POST", "/v1/auth/refresh", { body: { refresh_token: u.tokens.refresh_token } });
    assert.equal(res.status, 200);
    assert.equal(res.headers.get("cache-control"), "no-store");
    const next = (await res.json()) as { access_token: string; refresh_token: string };
    recordSecret(next.refresh_token);
    recordSecret(next.access_token);
    assert.notEqual(next.refresh_token, u.tokens.refresh_token);
    const again = await h.call("POST", "/v1/auth/refresh", { body: { refresh_token: next.refresh_token } });
    assert.equal(again.status, 200);
    recordSecret(((await again.json()) as { refresh_token: string }).refresh_token);
  });

  it("revokes the whole family when a spent refresh token is replayed", async () => {
    const u = await h.signUp();
    const first = await h.call("POST", "/v1/auth/refresh", { body: { refresh_token: u.tokens.refresh_token } });
    const next = (await first.json()) as { refresh_token: string; access_token: string };
    recordSecret(next.refresh_token);
    recordSecret(next.access_token);

    const replay = await h.call("POST", "/v1/auth/refresh", { body: { refresh_token: u.tokens.refresh_token } });
    assert.equal(replay.status, 401);
    assert.equal(((await replay.json()) as { code: string }).code, "INVALID_REFRESH_TOKEN");
    assert.deepEqual(invalidationsOf(replay), [{ scope: "session", sid: u.sid, sub: u.sub }]);

    // The legitimate holder's newer token is now dead too, and so is the session.
    const victim = await h.call("POST", "/v1/auth/refresh", { body: { refresh_token: next.refresh_token } });
    assert.equal(victim.status, 401);
    const state = await h.call("GET", `/internal/v1/sessions/${u.sid}`, {
      as: { kind: "service", service: "edge-gateway" },
    });
    assert.equal(((await state.json()) as { active: boolean }).active, false);
  });

  it("signs out: 204, the session is inactive, its refresh token is refused, and the gateway is told", async () => {
    const u = await h.signUp();
    const res = await h.call("POST", "/v1/auth/signout", { as: u.identity });
    assert.equal(res.status, 204);
    assert.deepEqual(invalidationsOf(res), [{ scope: "session", sid: u.sid, sub: u.sub }]);
    const state = await h.call("GET", `/internal/v1/sessions/${u.sid}`, {
      as: { kind: "service", service: "edge-gateway" },
    });
    assert.deepEqual(
      { ...((await state.json()) as object), tokens_valid_after: undefined },
      { sid: u.sid, sub: u.sub, active: false, tokens_valid_after: undefined },
    );
    const refresh = await h.call("POST", "/v1/auth/refresh", { body: { refresh_token: u.tokens.refresh_token } });
    assert.equal(refresh.status, 401);
  });
});
