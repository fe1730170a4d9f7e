// The headless OAuth client of the gateway's acceptance tests (its browser posts the sign-in and consent forms).
import { authorizeHeadless, HeadlessProvider, publicClient } from "@flowstate/edge-gateway/testing/headless-client";
import type { TestUser } from "@flowstate/identity-svc/testing/harness";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { startMcpStack } from "./mcp-stack.ts";

/**
 * Signs `user` in through the OAuth flow with the official client; returns a connected client and
 * the provider. `tenantId`: the tenant chosen on the consent page (default the first offered).
 */
export async function signIn(
  stack: Pick<Awaited<ReturnType<typeof startMcpStack>>, "resource">,
  user: TestUser,
  path = "/mcp",
  scope = "account",
  tenantId?: string,
) {
  const redirectUrl = "http://127.0.0.1:41998/callback";
  const provider = new HeadlessProvider(redirectUrl, publicClient("mcp-gateway test client", redirectUrl, scope));
  const url = new URL(path, stack.resource);
  // The SDK asks for every scope the resource metadata lists; this client wants only `scope`
  // (a person with no tenant can grant `account` alone: marketplace scopes need a tenant).
  await authorizeHeadless(url, provider, user, tenantId ? { tenantId } : {}, (authorization) => {
    authorization.searchParams.set("scope", scope);
    return authorization;
  });
  const client = new Client({ name: "mcp-gateway-test", version: "0.0.0" });
  await client.connect(new StreamableHTTPClientTransport(url, { authProvider: provider }));
  // As MCP clients do before calling tools. It also arms the official client's check of every
  // call's structuredContent against the listed outputSchema: the client checks listed tools only.
  await client.listTools();
  return { client, provider, token: provider.saved!.access_token };
}
