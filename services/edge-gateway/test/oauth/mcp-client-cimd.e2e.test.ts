import assert from "node:assert/strict";
import { hasOpenssl, startHttpsFixture } from "@flowstate/identity-svc/oauth/testing/https-fixture";
import type { TestUser } from "@flowstate/identity-svc/testing/harness";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, beforeAll, describe, it } from "vitest";
import { authorizeHeadless, HeadlessProvider } from "./headless-client.ts";
import { type OAuthStack, startOAuthStack } from "./oauth-stack.ts";

/**
 * The official MCP client registering the way current clients do: a Client ID Metadata Document
 * (`clientMetadataUrl`), served by a loopback HTTPS server with a self-signed certificate. The
 * authorization server reaches it only because the test names 127.0.0.1 in the fetcher's
 * allow-list (OAUTH_CIMD_ALLOWED_ADDRESSES, empty in production; identity-svc's cimd.test.ts shows
 * the refusal without it) and trusts the fixture's certificate.
 */
const skipReason = hasOpenssl() ? null : "openssl is not installed (it makes the fixture's self-signed certificate)";
if (skipReason) console.warn(`MCP client CIMD test skipped: ${skipReason}`);

describe.skipIf(skipReason !== null)("the official MCP client with a Client ID Metadata Document", () => {
  let fixture: Awaited<ReturnType<typeof startHttpsFixture>>;
  let stack: OAuthStack;
  let user: TestUser;
  let tenantId: string;
  beforeAll(async () => {
    fixture = await startHttpsFixture((o) => ({
      "/oauth/client.json": {
        headers: { "content-type": "application/json", "cache-control": "max-age=300" },
        // Claude Code's shape: portless loopback redirect URIs, no application_type.
        body: JSON.stringify({
          client_id: `${o}/oauth/client.json`,
          client_name: "CIMD test client",
          redirect_uris: ["http://127.0.0.1/callback", "http://localhost/callback"],
          grant_types: ["authorization_code", "refresh_token"],
          response_types: ["code"],
          token_endpoint_auth_method: "none",
        }),
      },
    }));
    stack = await startOAuthStack("gw_oauth_cimd", { cimd: { allowedAddresses: ["127.0.0.1"], ca: fixture.ca } });
    user = await stack.identity.signUp();
    tenantId = (await stack.identity.createTenant(user)).id;
  });
  afterAll(async () => {
    await stack?.close();
    await fixture?.close();
  });

  it("authorizes with the document's URL as client id and calls a tool", async () => {
    const clientId = `${fixture.origin}/oauth/client.json`;
    // What the SDK would register; with a metadata document URL it registers nothing (the server reads the document).
    const provider = new HeadlessProvider(
      "http://127.0.0.1:42777/callback",
      {
        client_name: "CIMD test client",
        redirect_uris: ["http://127.0.0.1/callback"],
        token_endpoint_auth_method: "none",
      },
      clientId,
    );
    await authorizeHeadless(new URL(stack.mcp.resource), provider, user, { tenantId });
    assert.equal(provider.authorizationUrl?.searchParams.get("client_id"), clientId);
    // The SDK stores {client_id: clientMetadataUrl} as the client's information: nothing was registered.
    assert.equal(provider.info?.client_id, clientId, "no registration: the URL is the client id");
    const client = new Client({ name: "cimd", version: "0" });
    await client.connect(new StreamableHTTPClientTransport(new URL(stack.mcp.resource), { authProvider: provider }));
    const result = await client.callTool({ name: "whoami", arguments: {} });
    assert.deepEqual(result.structuredContent, {
      sub: user.sub,
      client_id: clientId,
      tenant_id: tenantId,
      scopes: ["marketplace:read", "marketplace:write", "account"],
    });
    await client.close();
    assert.equal(fixture.hits.get("/oauth/client.json"), 1, "fetched once, then cached");
  });
});
