import type { TestUser } from "@flowstate/identity-svc/testing/harness";
import { recordSecret } from "@flowstate/shared/testing/secrets";
import type { OAuthClientProvider } from "@modelcontextprotocol/sdk/client/auth.js";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type {
  OAuthClientInformationMixed,
  OAuthClientMetadata,
  OAuthTokens,
} from "@modelcontextprotocol/sdk/shared/auth.js";
// The headless "browser" of the OAuth acceptance test (posts the sign-in and consent forms).
import { authorizeInBrowser } from "../../edge-gateway/test/oauth/browser-steps.ts";
import type { startMcpStack } from "./mcp-stack.ts";

/** The official client's OAuth provider, with a headless browser instead of a person. */
export class HeadlessProvider implements OAuthClientProvider {
  authorizationUrl: URL | undefined;
  info: OAuthClientInformationMixed | undefined;
  saved: OAuthTokens | undefined;
  verifier = "";
  readonly redirectUrl = "http://127.0.0.1:41998/callback";
  readonly scope: string;
  constructor(scope: string) {
    this.scope = scope;
  }
  get clientMetadata(): OAuthClientMetadata {
    return {
      scope: this.scope,
      client_name: "mcp-gateway test client",
      redirect_uris: [this.redirectUrl],
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
      token_endpoint_auth_method: "none",
    };
  }
  clientInformation() {
    return this.info;
  }
  saveClientInformation(info: OAuthClientInformationMixed) {
    this.info = info;
  }
  tokens() {
    return this.saved;
  }
  saveTokens(tokens: OAuthTokens) {
    recordSecret(tokens.access_token);
    if (tokens.refresh_token) recordSecret(tokens.refresh_token);
    this.saved = tokens;
  }
  redirectToAuthorization(url: URL) {
    this.authorizationUrl = url;
  }
  saveCodeVerifier(v: string) {
    this.verifier = v;
  }
  codeVerifier() {
    return this.verifier;
  }
}

/** Signs `user` in through the OAuth flow with the official client; returns a connected client and the provider. */
export async function signIn(
  stack: Pick<Awaited<ReturnType<typeof startMcpStack>>, "resource">,
  user: TestUser,
  path = "/mcp",
  scope = "account",
) {
  const provider = new HeadlessProvider(scope);
  const url = new URL(path, stack.resource);
  const first = new StreamableHTTPClientTransport(url, { authProvider: provider });
  await new Client({ name: "t", version: "0" }).connect(first).catch(() => undefined);
  // The SDK asks for every scope the resource metadata lists; this client wants only `scope`
  // (a person with no tenant can grant `account` alone: marketplace scopes need a tenant).
  const url0 = provider.authorizationUrl!;
  url0.searchParams.set("scope", scope);
  const back = await authorizeInBrowser(url0, user);
  await first.finishAuth(back.searchParams.get("code")!);
  const client = new Client({ name: "mcp-gateway-test", version: "0.0.0" });
  await client.connect(new StreamableHTTPClientTransport(url, { authProvider: provider }));
  // As MCP clients do before calling tools. It also arms the official client's check of every
  // call's structuredContent against the listed outputSchema: the client checks listed tools only.
  await client.listTools();
  return { client, provider, token: provider.saved!.access_token };
}
