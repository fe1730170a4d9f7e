import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { CONSOLE_CLIENT_ID } from "@flowstate/contracts/rest/identity/oauth";
import { recordSecret } from "@flowstate/shared/testing/secrets";
import { decodeJwt } from "jose";
import { afterAll, beforeAll, describe, it } from "vitest";
import { type Harness, startHarness, TEST_MCP_RESOURCE, type TestUser } from "../testing/harness.ts";
import { hiddenFields, oauthDriver, pkce } from "./testing/oauth-driver.ts";

let h: Harness;
let user: TestUser;
let oauth: ReturnType<typeof oauthDriver>;
let callback: string;
let restResource: string;

beforeAll(async () => {
  h = await startHarness({ prefix: "id_oauth_console" });
  user = await h.signUp();
  await h.createTenant(user);
  oauth = oauthDriver(h);
  callback = `${new URL(oauth.issuer).origin}/app/auth/callback`;
  restResource = `${new URL(oauth.issuer).origin}/v1`;
});
afterAll(() => h.close());

const authorizeConsole = (extra: Record<string, string> = {}) => {
  const { verifier, challenge } = pkce();
  const params = {
    response_type: "code",
    client_id: CONSOLE_CLIENT_ID,
    redirect_uri: callback,
    code_challenge: challenge,
    code_challenge_method: "S256",
    state: randomBytes(8).toString("hex"),
    resource: restResource,
    ...extra,
  };
  return { verifier, page: oauth.authorize(params), params };
};

describe("the seller console as the first-party client (ADR 0015)", () => {
  it("signs in without a consent page and gets a REST-audience token bound to no tenant", async () => {
    const { verifier, page } = authorizeConsole();
    const html = await (await page).text();
    assert.match(html, /Flowstate console/);
    const signedIn = await oauth.form("/oauth/authorize/signin", {
      ...hiddenFields(html),
      email: user.email,
      password: user.password,
    });
    assert.equal(signedIn.status, 303, "no consent page: the sign-in redirects with the code");
    const location = new URL(signedIn.headers.get("location")!);
    assert.equal(`${location.origin}${location.pathname}`, callback);
    const code = recordSecret(location.searchParams.get("code")!);
    const token = await oauth.token({
      grant_type: "authorization_code",
      code,
      redirect_uri: callback,
      client_id: CONSOLE_CLIENT_ID,
      code_verifier: verifier,
    });
    assert.equal(token.status, 200);
    const body = (await token.json()) as { access_token: string; refresh_token: string };
    recordSecret(body.access_token);
    recordSecret(body.refresh_token);
    const claims = decodeJwt(body.access_token);
    assert.equal(claims.aud, h.deps.accessToken.audience, "the REST audience the edge gateway checks");
    assert.equal(claims.client_id, CONSOLE_CLIENT_ID);
    assert.equal(claims.tenant_id, undefined, "the tenant is switched in the console, not fixed at sign-in");
    // The console's sign-ins are not listed among the MCP clients the user authorized.
    const listed = await h.call("GET", "/v1/users/me/authorized-clients", { as: user.identity });
    const clients = ((await listed.json()) as { authorized_clients: { client_id: string }[] }).authorized_clients;
    assert.ok(!clients.some((c) => c.client_id === CONSOLE_CLIENT_ID));
  });

  it("refuses the REST API as a resource for any other client, and another resource for the console", async () => {
    const other = await oauth.register(["http://127.0.0.1/callback"]);
    const { challenge } = pkce();
    const refused = await oauth.authorize({
      response_type: "code",
      client_id: other,
      redirect_uri: "http://127.0.0.1/callback",
      code_challenge: challenge,
      code_challenge_method: "S256",
      resource: restResource,
    });
    assert.equal(refused.status, 302);
    assert.equal(new URL(refused.headers.get("location")!).searchParams.get("error"), "invalid_target");
    const { page } = authorizeConsole({ resource: TEST_MCP_RESOURCE });
    const mcp = await page;
    assert.equal(new URL(mcp.headers.get("location")!).searchParams.get("error"), "invalid_target");
  });

  it("sends the console's code to its one redirect URI only", async () => {
    const { page } = authorizeConsole({ redirect_uri: "https://evil.example/app/auth/callback" });
    assert.equal((await page).status, 400);
  });
});
