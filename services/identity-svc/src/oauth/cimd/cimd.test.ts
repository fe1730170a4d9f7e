import assert from "node:assert/strict";
import { decodeJwt } from "jose";
import { afterAll, beforeAll, describe, it } from "vitest";
import { type Harness, startHarness, type TestUser } from "../../testing/harness.ts";
import { hasOpenssl, startHttpsFixture } from "../testing/https-fixture.ts";
import { oauthDriver, pkce } from "../testing/oauth-driver.ts";
import { CimdError } from "./fetch-document.ts";
import { ClientMetadataFetcher } from "./fetcher.ts";

/**
 * Client ID Metadata Documents from a real loopback HTTPS server with a self-signed certificate.
 * Loopback is a special-use address, refused in production; the harness names 127.0.0.1 in the
 * fetcher's allow-list (the documented test seam, OAUTH_CIMD_ALLOWED_ADDRESSES, empty by default)
 * and trusts the fixture's certificate, and the last suite shows the same URLs refused without it.
 */
const REDIRECT = "http://127.0.0.1/callback";
const doc = (clientId: string, extra: Record<string, unknown> = {}) =>
  JSON.stringify({
    client_id: clientId,
    client_name: "Metadata Client",
    redirect_uris: [REDIRECT],
    token_endpoint_auth_method: "none",
    ...extra,
  });
const json = (body: string, extra: Record<string, string> = {}) => ({
  body,
  headers: { "content-type": "application/json", ...extra },
});

const skipReason = hasOpenssl() ? null : "openssl is not installed (it makes the fixture's self-signed certificate)";
if (skipReason) console.warn(`client metadata document tests skipped: ${skipReason}`);

describe.skipIf(skipReason !== null)("client metadata documents", () => {
  let fixture: Awaited<ReturnType<typeof startHttpsFixture>>;
  let h: Harness;
  let user: TestUser;
  beforeAll(async () => {
    fixture = await startHttpsFixture((o) => ({
      "/client.json": json(doc(`${o}/client.json`), { "cache-control": "max-age=600" }),
      "/big.json": json(doc(`${o}/big.json`, { padding: "x".repeat(6 * 1024) })),
      "/redirect.json": { status: 302, headers: { location: `${o}/client.json` } },
      "/mismatch.json": json(doc(`${o}/client.json`)),
      "/secret.json": json(doc(`${o}/secret.json`, { client_secret: "s3cr3t-value" })),
      "/page.json": { body: "<html></html>", headers: { "content-type": "text/html" } },
      "/hang.json": { hang: true },
    }));
    h = await startHarness({
      prefix: "id_cimd",
      cimd: { allowedAddresses: ["127.0.0.1"], ca: fixture.ca, timeoutMs: 1_500 },
    });
    user = await h.signUp();
  });
  afterAll(async () => {
    await h?.close();
    await fixture?.close();
  });

  it("authorizes a client identified by its document's URL, showing its host, and caches the document", async () => {
    const oauth = oauthDriver(h);
    const clientId = `${fixture.origin}/client.json`;
    const { challenge, verifier } = pkce();
    const page = await oauth.authorize({
      response_type: "code",
      client_id: clientId,
      redirect_uri: "http://127.0.0.1:40123/callback",
      code_challenge: challenge,
      code_challenge_method: "S256",
      scope: "account",
    });
    const html = await page.clone().text();
    assert.equal(page.status, 200, html.slice(0, 300));
    assert.match(html, /<strong>Metadata Client<\/strong>, published at <strong>127\.0\.0\.1:\d+<\/strong>/);
    const answer = await oauth.signInAndConsent(page, user);
    const code = new URL(answer.headers.get("location")!).searchParams.get("code")!;
    const res = await oauth.token({
      grant_type: "authorization_code",
      code,
      redirect_uri: "http://127.0.0.1:40123/callback",
      client_id: clientId,
      code_verifier: verifier,
    });
    assert.equal(res.status, 200);
    assert.equal(decodeJwt(((await res.json()) as { access_token: string }).access_token).client_id, clientId);
    const again = await oauth.authorize({
      response_type: "code",
      client_id: clientId,
      redirect_uri: REDIRECT,
      code_challenge: challenge,
      code_challenge_method: "S256",
    });
    assert.equal(again.status, 200);
    assert.equal(fixture.hits.get("/client.json"), 1, "served from the cache the second time");
    const list = (await (await h.call("GET", "/v1/users/me/authorized-clients", { as: user.identity })).json()) as {
      authorized_clients: { client_id: string; client_type: string; client_ref: string }[];
    };
    assert.equal(list.authorized_clients[0]?.client_id, clientId);
    assert.equal(list.authorized_clients[0]?.client_type, "metadata_document");
    assert.match(list.authorized_clients[0]!.client_ref, /^cli_[0-9a-f]{32}$/);
  });

  it("refuses documents that are too large, redirected, not JSON, for another URL, carrying a secret, or too slow", async () => {
    const fetcher = new ClientMetadataFetcher({ allowedAddresses: ["127.0.0.1"], ca: fixture.ca, timeoutMs: 1_000 });
    for (const [path, reason] of [
      ["/big.json", "too_large"],
      ["/redirect.json", "redirect"],
      ["/page.json", "content_type"],
      ["/mismatch.json", "client_id_mismatch"],
      ["/secret.json", "invalid_document"],
      ["/missing.json", "status"],
      ["/hang.json", "timeout"],
    ] as const) {
      await assert.rejects(
        fetcher.get(`${fixture.origin}${path}`),
        (e) => e instanceof CimdError && e.reason === reason,
        path,
      );
    }
    const before = fixture.hits.get("/big.json");
    await assert.rejects(fetcher.get(`${fixture.origin}/big.json`));
    assert.equal(fixture.hits.get("/big.json"), (before ?? 0) + 1, "a refused document is not cached");
  });

  it("shows the refusal on the authorization page, never redirecting", async () => {
    const oauth = oauthDriver(h);
    const res = await oauth.authorize({
      response_type: "code",
      client_id: `${fixture.origin}/big.json`,
      redirect_uri: REDIRECT,
      code_challenge: pkce().challenge,
      code_challenge_method: "S256",
    });
    assert.equal(res.status, 400);
    assert.equal(res.headers.get("location"), null);
    assert.match(await res.text(), /INVALID_CLIENT_TOO_LARGE/);
  });

  it("refuses loopback, private and link-local addresses without the allow-list, before connecting", async () => {
    const strict = new ClientMetadataFetcher({ ca: fixture.ca });
    const port = new URL(fixture.origin).port;
    const served = fixture.hits.get("/client.json") ?? 0;
    for (const url of [
      `${fixture.origin}/client.json`,
      `https://localhost:${port}/client.json`,
      "https://10.0.0.8/client.json",
      "https://169.254.169.254/latest/meta-data.json",
      "https://[::1]/client.json",
      "https://[::ffff:192.168.0.1]/client.json",
    ]) {
      await assert.rejects(strict.get(url), (e) => e instanceof CimdError && e.reason === "address_not_allowed", url);
    }
    assert.equal(fixture.hits.get("/client.json") ?? 0, served, "nothing was fetched");
  });

  it("refuses client ids that are not a plain https URL with a path", async () => {
    const oauth = oauthDriver(h);
    for (const id of [
      "https://client.example",
      "https://client.example/",
      "https://client.example/a/../b.json",
      "https://user@client.example/c.json",
      "https://CLIENT.example/c.json",
    ]) {
      const res = await oauth.authorize({
        response_type: "code",
        client_id: id,
        redirect_uri: REDIRECT,
        code_challenge: pkce().challenge,
        code_challenge_method: "S256",
      });
      assert.equal(res.status, 400, id);
      assert.match(await res.text(), /INVALID_CLIENT_INVALID_CLIENT_ID_URL/, id);
    }
  });
});
