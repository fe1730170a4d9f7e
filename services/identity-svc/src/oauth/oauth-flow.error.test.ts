import assert from "node:assert/strict";
import { decodeJwt } from "jose";
import { afterAll, beforeAll, describe, it } from "vitest";
import { type Harness, startHarness, type TestUser } from "../testing/harness.ts";
import { deleteAccount } from "../verbs/delete-account.ts";
import { disableAccount } from "../verbs/disable-account.ts";
import { sessionState } from "../verbs/session-state.ts";
import { hiddenFields, oauthDriver, pkce } from "./testing/oauth-driver.ts";

let h: Harness;
let user: TestUser;
let oauth: ReturnType<typeof oauthDriver>;
let clientId: string;
const REDIRECT = "http://127.0.0.1/callback";

beforeAll(async () => {
  h = await startHarness({ prefix: "id_oauth_err" });
  user = await h.signUp();
  await h.createTenant(user);
  oauth = oauthDriver(h);
  clientId = await oauth.register([REDIRECT, "https://app.example/cb"]);
});
afterAll(() => h.close());

const errorOf = async (res: Response) => ((await res.json()) as { error: string }).error;
const redirectError = (res: Response) => new URL(res.headers.get("location")!).searchParams.get("error");
const request = (extra: Record<string, string | undefined>) => {
  const { challenge } = pkce();
  const params: Record<string, string> = {};
  const all = {
    response_type: "code",
    client_id: clientId,
    redirect_uri: REDIRECT,
    code_challenge: challenge,
    code_challenge_method: "S256",
    state: "st",
    ...extra,
  };
  for (const [k, v] of Object.entries(all)) if (v !== undefined) params[k] = v;
  return oauth.authorize(params);
};
const live = async (sid: string) => (await sessionState({ ctx: h.ctx({ kind: "system" }), sid })).active;

describe("authorization requests the server refuses", () => {
  it("refuses a missing PKCE challenge and the plain method, back to the client with state", async () => {
    for (const [extra, why] of [
      [{ code_challenge: undefined, code_challenge_method: undefined }, "no PKCE"],
      [{ code_challenge_method: "plain" }, "plain"],
      [{ code_challenge: "short" }, "malformed challenge"],
    ] as const) {
      const res = await request(extra);
      assert.equal(res.status, 302, why);
      assert.equal(redirectError(res), "invalid_request", why);
      assert.equal(new URL(res.headers.get("location")!).searchParams.get("state"), "st", why);
    }
  });

  it("never redirects to a redirect URI the client did not register, nor for an unknown client", async () => {
    for (const [extra, code] of [
      [{ redirect_uri: "https://evil.example/cb" }, "INVALID_REDIRECT_URI"],
      [{ redirect_uri: "https://app.example/cb/" }, "INVALID_REDIRECT_URI"], // exact match only
      [{ redirect_uri: "http://localhost/callback" }, "INVALID_REDIRECT_URI"], // localhost is not 127.0.0.1
      [{ redirect_uri: "http://127.0.0.1:8080/other" }, "INVALID_REDIRECT_URI"],
      [{ client_id: "cli_0000000000unknownxx" }, "INVALID_CLIENT_UNKNOWN_CLIENT"],
    ] as const) {
      const res = await request(extra);
      assert.equal(res.status, 400, code);
      assert.equal(res.headers.get("location"), null, code);
      assert.match(res.headers.get("content-type") ?? "", /^text\/html/);
      assert.match(await res.text(), new RegExp(code));
    }
  });

  it("refuses unknown scopes, unknown resources and other response types", async () => {
    assert.equal(redirectError(await request({ scope: "admin" })), "invalid_scope");
    assert.equal(redirectError(await request({ resource: "https://elsewhere.test/mcp" })), "invalid_target");
    assert.equal(redirectError(await request({ response_type: "token" })), "unsupported_response_type");
  });
});

describe("the token endpoint refuses", () => {
  it("a missing or wrong code_verifier, and the code is spent by the failed attempt", async () => {
    const { code, verifier } = await oauth.code(user, clientId, REDIRECT);
    const base = { grant_type: "authorization_code", code, redirect_uri: REDIRECT, client_id: clientId };
    const missing = await oauth.token(base);
    assert.equal(missing.status, 400);
    assert.equal(await errorOf(missing), "invalid_request");
    const wrong = await oauth.token({ ...base, code_verifier: pkce().verifier });
    assert.equal(await errorOf(wrong), "invalid_grant");
    const right = await oauth.token({ ...base, code_verifier: verifier });
    assert.equal(await errorOf(right), "invalid_grant", "a code tried with the wrong verifier is gone");
  });

  it("a replayed code, revoking the tokens it issued", async () => {
    const { code, verifier } = await oauth.code(user, clientId, REDIRECT);
    const fields = {
      grant_type: "authorization_code",
      code,
      redirect_uri: REDIRECT,
      client_id: clientId,
      code_verifier: verifier,
    };
    const first = await oauth.token(fields);
    assert.equal(first.status, 200);
    const tokens = (await first.json()) as { access_token: string; refresh_token: string };
    const sid = decodeJwt(tokens.access_token).sid as string;
    assert.equal(await live(sid), true);
    const again = await oauth.token(fields);
    assert.equal(again.status, 400);
    const body = (await again.json()) as { error: string; code: string; request_id: string };
    assert.equal(body.error, "invalid_grant");
    assert.equal(body.code, "OAUTH_INVALID_GRANT", "the problem members travel beside the OAuth error");
    assert.ok(body.request_id);
    assert.match(again.headers.get("flowstate-invalidate") ?? "", new RegExp(sid));
    assert.equal(await live(sid), false);
    const refresh = await oauth.token({
      grant_type: "refresh_token",
      refresh_token: tokens.refresh_token,
      client_id: clientId,
    });
    assert.equal(await errorOf(refresh), "invalid_grant");
  });

  it("a code for another client, redirect URI or resource", async () => {
    const other = await oauth.register([REDIRECT]);
    for (const [change, error] of [
      [{ client_id: other }, "invalid_grant"],
      [{ redirect_uri: "http://127.0.0.1:9999/callback" }, "invalid_grant"],
      [{ resource: "https://elsewhere.test/mcp" }, "invalid_target"],
    ] as const) {
      const { code, verifier } = await oauth.code(user, clientId, REDIRECT);
      const res = await oauth.token({
        grant_type: "authorization_code",
        code,
        redirect_uri: REDIRECT,
        client_id: clientId,
        code_verifier: verifier,
        ...change,
      });
      assert.equal(await errorOf(res), error, JSON.stringify(change));
    }
  });

  it("an expired code", async () => {
    let skew = 0;
    const clocked = await startHarness({ prefix: "id_oauth_clock", clock: () => new Date(Date.now() + skew) });
    try {
      const d = oauthDriver(clocked);
      const u = await clocked.signUp();
      const c = await d.register([REDIRECT]);
      const { code, verifier } = await d.code(u, c, REDIRECT, { scope: "account" });
      skew = 61_000;
      const res = await d.token({
        grant_type: "authorization_code",
        code,
        redirect_uri: REDIRECT,
        client_id: c,
        code_verifier: verifier,
      });
      assert.equal(await errorOf(res), "invalid_grant");
    } finally {
      await clocked.close();
    }
  });

  it("client secrets and grants other than code and refresh", async () => {
    const secret = await oauth.token({
      grant_type: "authorization_code",
      code: "x",
      redirect_uri: REDIRECT,
      client_id: clientId,
      code_verifier: "y",
      client_secret: "s",
    });
    assert.equal(secret.status, 401);
    assert.equal(await errorOf(secret), "invalid_client");
    assert.equal(
      await errorOf(await oauth.token({ grant_type: "password", client_id: clientId })),
      "unsupported_grant_type",
    );
    assert.equal(
      await errorOf(
        await oauth.token({
          grant_type: "refresh_token",
          refresh_token: "ort_x",
          client_id: clientId,
          scope: "a",
          resource: "b",
        }),
      ),
      "invalid_grant",
    );
  });
});

describe("OAuth bodies are never altered on the way in", () => {
  it("the token endpoint refuses bytes or percent-escapes that are not UTF-8 instead of reading U+FFFD", async () => {
    const post = (body: Uint8Array<ArrayBuffer> | string) =>
      h.app.request("/oauth/token", {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body,
      });
    for (const [what, body] of [
      ["a raw byte", new Uint8Array([...Buffer.from("grant_type=refresh_token&client_id=a"), 0xff])],
      ["an escape of a lone continuation byte", "grant_type=refresh_token&client_id=a%80&refresh_token=x"],
      ["an escape of an encoded surrogate", "grant_type=refresh_token&client_id=%ED%A0%80&refresh_token=x"],
    ] as const) {
      const res = await post(body);
      assert.equal(res.status, 400, what);
      assert.equal(await errorOf(res), "invalid_request", what);
    }
    // Valid escapes (multi-byte included) still decode.
    assert.equal(
      await errorOf(await post("grant_type=refresh_token&client_id=%C3%A9&refresh_token=x")),
      "invalid_grant",
    );
  });

  it("registration refuses a body that is not UTF-8 and a client name with a bidi control", async () => {
    const raw = await h.app.request("/oauth/register", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: Buffer.concat([
        Buffer.from(`{"redirect_uris":["${REDIRECT}"],"client_name":"Cl`),
        Buffer.from([0xe9]),
        Buffer.from('"}'),
      ]),
    });
    assert.equal(raw.status, 400);
    assert.equal(await errorOf(raw), "invalid_client_metadata");
    for (const name of ["Good App\u202E", "\u2067Good App", "Good\u200FApp"]) {
      const res = await h.call("POST", "/oauth/register", {
        raw: `{"redirect_uris":["${REDIRECT}"],"client_name":"${name}"}`,
        headers: { "content-type": "application/json" },
      });
      assert.equal(res.status, 400, name);
      assert.equal(await errorOf(res), "invalid_client_metadata", name);
    }
  });
});

describe("revocation covers OAuth tokens", () => {
  it("a deleted account's refresh token is refused, and so is a disabled account's", async () => {
    for (const revoke of ["delete", "disable"] as const) {
      const u = await h.signUp();
      const tokens = await oauth.tokens(u, clientId, REDIRECT, { scope: "account" });
      const sid = decodeJwt(tokens.access_token).sid as string;
      const ctx = h.ctx({ kind: "user", sub: u.sub, sid: u.sid });
      if (revoke === "delete") await deleteAccount({ ctx, sub: u.sub });
      else await disableAccount({ ctx, sub: u.sub });
      assert.ok(
        ctx.invalidations.some((i) => i.sid === sid),
        `${revoke}: the gateways are told about the OAuth family`,
      );
      assert.equal(await live(sid), false, revoke);
      const res = await oauth.token({
        grant_type: "refresh_token",
        refresh_token: tokens.refresh_token,
        client_id: clientId,
      });
      assert.equal(await errorOf(res), "invalid_grant", revoke);
    }
  });
});

describe("dynamic registration", () => {
  it("refuses confidential clients, non-loopback http, script schemes and fragments", async () => {
    for (const [body, error] of [
      [{ redirect_uris: [REDIRECT], token_endpoint_auth_method: "client_secret_basic" }, "invalid_client_metadata"],
      [{ redirect_uris: ["http://app.example/cb"] }, "invalid_redirect_uri"],
      [{ redirect_uris: ["javascript:alert(1)"] }, "invalid_redirect_uri"],
      [{ redirect_uris: ["https://app.example/cb#x"] }, "invalid_redirect_uri"],
      [{ redirect_uris: [] }, "invalid_client_metadata"],
      [{ redirect_uris: [REDIRECT], scope: "root" }, "invalid_client_metadata"],
    ] as const) {
      const res = await h.call("POST", "/oauth/register", { body });
      assert.equal(res.status, 400, JSON.stringify(body));
      assert.equal(await errorOf(res), error, JSON.stringify(body));
    }
    const native = await h.call("POST", "/oauth/register", {
      body: { redirect_uris: ["com.example.app:/cb", REDIRECT] },
    });
    assert.equal(native.status, 201);
    const answer = (await native.json()) as Record<string, unknown>;
    assert.equal(answer.application_type, "native");
    assert.equal(answer.token_endpoint_auth_method, "none");
    assert.equal(answer.client_secret, undefined);
  });
});

describe("the sign-in and consent forms", () => {
  it("carry frame-ancestors 'none', no script, and form-action limited to us and the client's redirect origin", async () => {
    const page = await request({});
    const csp = page.headers.get("content-security-policy") ?? "";
    assert.match(csp, /frame-ancestors 'none'/);
    assert.match(csp, /default-src 'none'/);
    assert.doesNotMatch(csp, /script-src/);
    assert.equal(page.headers.get("x-frame-options"), "DENY");
    assert.equal(page.headers.get("cache-control"), "no-store");
    const signedIn = await oauth.form("/oauth/authorize/signin", {
      ...hiddenFields(await page.text()),
      email: user.email,
      password: user.password,
    });
    assert.match(signedIn.headers.get("content-security-policy") ?? "", /form-action 'self' http:\/\/127\.0\.0\.1;/);
  });

  it("refuse a post from another origin, a wrong CSRF token, and the pre-sign-in token at consent", async () => {
    const fields = hiddenFields(await (await request({})).text());
    const cross = await oauth.form(
      "/oauth/authorize/signin",
      { ...fields, email: user.email, password: user.password },
      { origin: "https://evil.example" },
    );
    assert.equal(cross.status, 403);
    const site = await h.app.request("/oauth/authorize/signin", {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", "sec-fetch-site": "cross-site" },
      body: new URLSearchParams({ ...fields, email: user.email, password: user.password }).toString(),
    });
    assert.equal(site.status, 403);
    const forged = await oauth.form("/oauth/authorize/signin", {
      ...fields,
      csrf: "x".repeat(43),
      email: user.email,
      password: user.password,
    });
    assert.equal(forged.status, 400);
    assert.match(await forged.text(), /INTERACTION_EXPIRED/);
    // Whoever started the request holds the first token; after the user signs in it no longer works.
    const ok = await oauth.form("/oauth/authorize/signin", { ...fields, email: user.email, password: user.password });
    assert.equal(ok.status, 200);
    const stale = await oauth.form("/oauth/authorize/consent", { ...fields, decision: "allow" });
    assert.equal(stale.status, 400);
    assert.equal(stale.headers.get("location"), null);
  });

  it("answer a wrong password with the sign-in page again and an announced error, revealing nothing else", async () => {
    const fields = hiddenFields(await (await request({})).text());
    for (const email of [user.email, "nobody@example.test"]) {
      const res = await oauth.form("/oauth/authorize/signin", { ...fields, email, password: "wrong-password-1" });
      assert.equal(res.status, 401);
      const html = await res.text();
      assert.match(html, /role="alert">The e-mail address or the password is wrong\./);
      assert.match(html, /aria-invalid="true"/);
    }
  });
});
