import assert from "node:assert/strict";
import { verifyAccessToken } from "@flowstate/shared/auth/access-token";
import { createLocalJWKSet, decodeJwt, type JWK } from "jose";
import { afterAll, beforeAll, describe, it } from "vitest";
import { type Harness, startHarness, TEST_MCP_RESOURCE, type TestUser } from "../testing/harness.ts";
import { sessionState } from "../verbs/session-state.ts";
import { oauthDriver, pkce } from "./testing/oauth-driver.ts";

let h: Harness;
let user: TestUser;
let tenantId: string;
let oauth: ReturnType<typeof oauthDriver>;
const REDIRECT = "http://127.0.0.1/callback";
const AT_PORT = "http://127.0.0.1:53123/callback";

beforeAll(async () => {
  h = await startHarness({ prefix: "id_oauth_happy" });
  user = await h.signUp();
  tenantId = (await h.createTenant(user)).id;
  oauth = oauthDriver(h);
});
afterAll(() => h.close());

/** Verifies an OAuth token the way an MCP server does (shared/src/auth/access-token.ts). */
async function verify(token: string, audience = TEST_MCP_RESOURCE) {
  const jwks = createLocalJWKSet(h.deps.keyring.jwks(new Date()) as { keys: JWK[] });
  return verifyAccessToken(token, {
    keys: { key: async (kid) => (await jwks({ alg: "ES256", kid })) as never },
    issuer: oauth.issuer,
    audience,
  });
}

describe("the OAuth authorization server", () => {
  it("publishes RFC 8414 metadata with S256 only, metadata documents and the iss parameter", async () => {
    const res = await h.call("GET", "/.well-known/oauth-authorization-server");
    assert.equal(res.status, 200);
    const m = (await res.json()) as Record<string, unknown>;
    assert.equal(m.issuer, oauth.issuer);
    assert.equal(m.authorization_endpoint, `${oauth.issuer}/oauth/authorize`);
    assert.equal(m.token_endpoint, `${oauth.issuer}/oauth/token`);
    assert.equal(m.registration_endpoint, `${oauth.issuer}/oauth/register`);
    assert.deepEqual(m.code_challenge_methods_supported, ["S256"]);
    assert.deepEqual(m.token_endpoint_auth_methods_supported, ["none"]);
    assert.equal(m.client_id_metadata_document_supported, true);
    assert.equal(m.authorization_response_iss_parameter_supported, true);
    assert.deepEqual(m.scopes_supported, ["marketplace:read", "marketplace:write", "account"]);
  });

  it("runs a registered client through sign-in, consent and the code exchange, at any loopback port", async () => {
    const clientId = await oauth.register([REDIRECT]);
    const { code, verifier, state, location } = await oauth.code(user, clientId, AT_PORT, {
      resource: `${TEST_MCP_RESOURCE}/`,
    });
    assert.equal(`${location.origin}${location.pathname}`, AT_PORT);
    assert.equal(location.searchParams.get("state"), state);
    assert.equal(location.searchParams.get("iss"), oauth.issuer);
    const res = await oauth.token({
      grant_type: "authorization_code",
      code,
      redirect_uri: AT_PORT,
      client_id: clientId,
      code_verifier: verifier,
      resource: TEST_MCP_RESOURCE,
    });
    assert.equal(res.status, 200);
    assert.equal(res.headers.get("cache-control"), "no-store");
    const tokens = (await res.json()) as {
      access_token: string;
      refresh_token: string;
      scope: string;
      token_type: string;
      expires_in: number;
    };
    assert.equal(tokens.token_type, "Bearer");
    assert.match(tokens.refresh_token, /^ort_/);
    assert.equal(tokens.scope, "marketplace:read marketplace:write account");
    const claims = await verify(tokens.access_token);
    assert.equal(claims.sub, user.sub);
    assert.equal(claims.clientId, clientId);
    assert.equal(claims.tenantId, tenantId);
    assert.deepEqual(claims.scopes, ["marketplace:read", "marketplace:write", "account"]);
    assert.ok(claims.authTime && Math.abs(claims.authTime - Date.now() / 1000) < 60);
    // The family is a session like any other: the gateways' revocation check sees it live.
    assert.equal((await sessionState({ ctx: h.ctx({ kind: "system" }), sid: claims.sid })).active, true);
  });

  it("rotates refresh tokens, keeps auth_time, and revokes the family when a spent one comes back", async () => {
    const clientId = await oauth.register([REDIRECT]);
    const first = await oauth.tokens(user, clientId, REDIRECT);
    const refresh = (token: string, extra: Record<string, string> = {}) =>
      oauth.token({ grant_type: "refresh_token", refresh_token: token, client_id: clientId, ...extra });
    const res = await refresh(first.refresh_token, { scope: "account" });
    assert.equal(res.status, 200);
    const second = (await res.json()) as { access_token: string; refresh_token: string; scope: string };
    assert.notEqual(second.refresh_token, first.refresh_token);
    assert.equal(second.scope, "account", "a narrower scope for this access token");
    const a = decodeJwt(first.access_token);
    const b = decodeJwt(second.access_token);
    assert.equal(b.auth_time, a.auth_time, "a refresh is not a new sign-in");
    assert.equal(b.sid, a.sid);
    const replay = await refresh(first.refresh_token);
    assert.equal(replay.status, 400);
    assert.equal(((await replay.json()) as { error: string }).error, "invalid_grant");
    assert.equal((await refresh(second.refresh_token)).status, 400, "the whole family is revoked");
    assert.equal((await sessionState({ ctx: h.ctx({ kind: "system" }), sid: b.sid as string })).active, false);
  });

  it("lists the clients a user authorized and revokes one with everything it holds", async () => {
    const other = await h.signUp();
    const clientId = await oauth.register([REDIRECT], { client_name: "Desk Assistant" });
    const tokens = await oauth.tokens(other, clientId, REDIRECT, { scope: "account" }); // no tenant needed
    const list = await h.call("GET", "/v1/users/me/authorized-clients", { as: other.identity });
    assert.equal(list.status, 200);
    const { authorized_clients } = (await list.json()) as {
      authorized_clients: { client_ref: string; client_name: string; client_type: string }[];
    };
    assert.equal(authorized_clients.length, 1);
    assert.equal(authorized_clients[0]!.client_name, "Desk Assistant");
    assert.equal(authorized_clients[0]!.client_type, "registered");
    // Someone else cannot revoke it, and it looks missing to them.
    const foreign = await h.call("DELETE", `/v1/users/me/authorized-clients/${clientId}`, { as: user.identity });
    assert.equal(foreign.status, 404);
    const del = await h.call("DELETE", `/v1/users/me/authorized-clients/${clientId}`, { as: other.identity });
    assert.equal(del.status, 204);
    assert.match(del.headers.get("flowstate-invalidate") ?? "", /"scope":"session"/);
    const refreshed = await oauth.token({
      grant_type: "refresh_token",
      refresh_token: tokens.refresh_token,
      client_id: clientId,
    });
    assert.equal(((await refreshed.json()) as { error: string }).error, "invalid_grant");
    const sid = decodeJwt(tokens.access_token).sid as string;
    assert.equal((await sessionState({ ctx: h.ctx({ kind: "system" }), sid })).active, false);
    const empty = (await (await h.call("GET", "/v1/users/me/authorized-clients", { as: other.identity })).json()) as {
      authorized_clients: unknown[];
    };
    assert.deepEqual(empty.authorized_clients, []);
  });

  it("keeps REST and OAuth refresh tokens apart, and revokes a family through RFC 7009", async () => {
    const clientId = await oauth.register([REDIRECT]);
    const tokens = await oauth.tokens(user, clientId, REDIRECT);
    const rest = await h.call("POST", "/v1/auth/refresh", { body: { refresh_token: tokens.refresh_token } });
    assert.equal(rest.status, 401);
    const cross = await oauth.token({
      grant_type: "refresh_token",
      refresh_token: user.tokens.refresh_token,
      client_id: clientId,
    });
    assert.equal(((await cross.json()) as { error: string }).error, "invalid_grant");
    const revoked = await oauth.form("/oauth/revoke", { token: tokens.access_token, client_id: clientId });
    assert.equal(revoked.status, 200);
    const after = await oauth.token({
      grant_type: "refresh_token",
      refresh_token: tokens.refresh_token,
      client_id: clientId,
    });
    assert.equal(after.status, 400);
  });

  it("sends access_denied back when the user denies, with state and iss", async () => {
    const clientId = await oauth.register([REDIRECT]);
    const { challenge } = pkce();
    const page = await oauth.authorize({
      response_type: "code",
      client_id: clientId,
      redirect_uri: REDIRECT,
      code_challenge: challenge,
      code_challenge_method: "S256",
      state: "s1",
    });
    const answer = await oauth.signInAndConsent(page, user, { decision: "deny" });
    assert.equal(answer.status, 303);
    const location = new URL(answer.headers.get("location")!);
    assert.equal(location.searchParams.get("error"), "access_denied");
    assert.equal(location.searchParams.get("state"), "s1");
    assert.equal(location.searchParams.get("iss"), oauth.issuer);
  });
});
