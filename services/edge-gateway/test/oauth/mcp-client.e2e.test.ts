import assert from "node:assert/strict";
import type { TestUser } from "@flowstate/identity-svc/testing/harness";
import { type OAuthClientProvider, UnauthorizedError } from "@modelcontextprotocol/sdk/client/auth.js";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, beforeAll, describe, it } from "vitest";
import { authorizeInBrowser } from "./browser-steps.ts";
import { authorizeHeadless, HeadlessProvider, publicClient } from "./headless-client.ts";
import { type OAuthStack, startOAuthStack } from "./oauth-stack.ts";

/**
 * The acceptance test of the authorization server: the official MCP TypeScript client's OAuth
 * support (OAuthClientProvider, auth()) against identity-svc behind the edge gateway, headless:
 * discovery from a 401, dynamic registration, authorization (this test is the browser), token
 * exchange, a tool call, then a refresh when the access token expires.
 */
const redirectUrl = "http://127.0.0.1:41999/callback"; // any loopback port (RFC 8252)
const headless = () => new HeadlessProvider(redirectUrl, publicClient("Headless MCP test client", redirectUrl));

let stack: OAuthStack;
let user: TestUser;
let tenantId: string;
beforeAll(async () => {
  stack = await startOAuthStack("gw_oauth_mcp");
  user = await stack.identity.signUp();
  tenantId = (await stack.identity.createTenant(user)).id;
});
afterAll(() => stack.close());

const connect = async (provider: OAuthClientProvider) => {
  const client = new Client({ name: "oauth-acceptance", version: "0.0.0" });
  await client.connect(new StreamableHTTPClientTransport(new URL(stack.mcp.resource), { authProvider: provider }));
  return client;
};

describe("the official MCP client signs in through the authorization server", () => {
  it("discovers from a 401, registers, authorizes, exchanges the code, calls a tool, and refreshes", async () => {
    const provider = headless();
    const transport = new StreamableHTTPClientTransport(new URL(stack.mcp.resource), { authProvider: provider });
    await assert.rejects(new Client({ name: "t", version: "0" }).connect(transport), UnauthorizedError);

    // Discovery went 401 → PRM → RFC 8414 metadata on the gateway; registration was RFC 7591.
    assert.match(provider.info?.client_id ?? "", /^cli_/);
    const url = provider.authorizationUrl!;
    assert.equal(url.origin, stack.issuer);
    assert.equal(url.pathname, "/oauth/authorize");
    assert.equal(url.searchParams.get("code_challenge_method"), "S256");
    assert.equal(url.searchParams.get("resource"), stack.mcp.resource);
    const state = url.searchParams.get("state");

    const back = await authorizeInBrowser(url, user, { tenantId });
    assert.equal(`${back.origin}${back.pathname}`, provider.redirectUrl);
    assert.equal(back.searchParams.get("state"), state);
    assert.equal(back.searchParams.get("iss"), stack.issuer);
    await transport.finishAuth(back.searchParams.get("code")!);
    assert.ok(provider.saved?.refresh_token, "a refresh token for the public client");

    const client = await connect(provider);
    const first = await client.callTool({ name: "whoami", arguments: {} });
    assert.deepEqual(first.structuredContent, {
      sub: user.sub,
      client_id: provider.info!.client_id,
      tenant_id: tenantId,
      scopes: ["marketplace:read", "marketplace:write", "account"],
    });
    await client.close();

    // 16 minutes later the access token has expired: the client refreshes on the 401 by itself.
    const before = provider.saved!;
    stack.skew(16 * 60_000);
    try {
      const later = await connect(provider);
      const second = await later.callTool({ name: "whoami", arguments: {} });
      assert.equal((second.structuredContent as { sub: string }).sub, user.sub);
      await later.close();
      assert.notEqual(provider.saved!.access_token, before.access_token);
      assert.notEqual(provider.saved!.refresh_token, before.refresh_token, "the refresh token rotated");
      // The spent refresh token is refused, and that revokes the whole family (the new one too).
      const replay = await fetch(`${stack.issuer}/oauth/token`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({
          grant_type: "refresh_token",
          refresh_token: before.refresh_token!,
          client_id: provider.info!.client_id,
        }).toString(),
      });
      assert.equal(replay.status, 400);
      assert.equal(((await replay.json()) as { error: string }).error, "invalid_grant");
      const revoked = await fetch(stack.mcp.resource, {
        method: "POST",
        headers: {
          authorization: `Bearer ${provider.saved!.access_token}`,
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
        },
        body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
      });
      assert.equal(revoked.status, 401, "the family's access token fails the revocation check");
    } finally {
      stack.skew(0);
    }
  });
});

describe("each door refuses the other's tokens", () => {
  it("the MCP server answers a REST token 401 with the challenge, and the REST gateway refuses an MCP token", async () => {
    const rest = await fetch(stack.mcp.resource, {
      method: "POST",
      headers: { authorization: `Bearer ${user.tokens.access_token}`, "content-type": "application/json" },
      body: "{}",
    });
    assert.equal(rest.status, 401);
    const challenge = rest.headers.get("www-authenticate") ?? "";
    assert.match(
      challenge,
      /^Bearer resource_metadata="http:\/\/127\.0\.0\.1:\d+\/\.well-known\/oauth-protected-resource\/mcp"/,
    );
    assert.match(challenge, /error="invalid_token"/);

    const provider = headless();
    await authorizeHeadless(new URL(stack.mcp.resource), provider, user, { tenantId });
    const mcpToken = provider.saved!.access_token;
    for (const path of ["/v1/users/me", `/v1/tenants/${tenantId}`]) {
      const res = await fetch(`${stack.issuer}${path}`, { headers: { authorization: `Bearer ${mcpToken}` } });
      assert.equal(res.status, 401, path);
      assert.equal(((await res.json()) as { code: string }).code, "INVALID_TOKEN", path);
    }
    // The same user's REST token works there: the refusal is the audience, nothing else.
    const ok = await fetch(`${stack.issuer}/v1/users/me`, {
      headers: { authorization: `Bearer ${user.tokens.access_token}` },
    });
    assert.equal(ok.status, 200);
  });

  it("a revoked client's tokens stop at the MCP server and at the token endpoint", async () => {
    const provider = headless();
    await authorizeHeadless(new URL(stack.mcp.resource), provider, user, { tenantId });
    const client = await connect(provider);
    await client.callTool({ name: "whoami", arguments: {} });
    await client.close();
    const ref = provider.info!.client_id;
    const del = await fetch(`${stack.issuer}/v1/users/me/authorized-clients/${ref}`, {
      method: "DELETE",
      headers: { authorization: `Bearer ${user.tokens.access_token}` },
    });
    assert.equal(del.status, 204);
    const saved = provider.saved!;
    provider.saved = { ...saved }; // the client still holds both tokens
    const refused = await fetch(stack.mcp.resource, {
      method: "POST",
      headers: {
        authorization: `Bearer ${saved.access_token}`,
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
      },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
    });
    assert.equal(refused.status, 401);
    const refresh = await fetch(`${stack.issuer}/oauth/token`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({
        grant_type: "refresh_token",
        refresh_token: saved.refresh_token!,
        client_id: ref,
      }).toString(),
    });
    assert.equal(((await refresh.json()) as { error: string }).error, "invalid_grant");
  });
});
