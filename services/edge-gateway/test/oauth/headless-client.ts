import assert from "node:assert/strict";
import { recordSecret } from "@flowstate/shared/testing/secrets";
import { type OAuthClientProvider, UnauthorizedError } from "@modelcontextprotocol/sdk/client/auth.js";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type {
  OAuthClientInformationMixed,
  OAuthClientMetadata,
  OAuthTokens,
} from "@modelcontextprotocol/sdk/shared/auth.js";
import { authorizeInBrowser } from "./browser-steps.ts";

/**
 * What a public client (no secret) registers: the code flow with refresh tokens, on one loopback
 * redirect URI (any port, RFC 8252), asking for `scope` when given.
 */
export const publicClient = (clientName: string, redirectUrl: string, scope?: string): OAuthClientMetadata => ({
  ...(scope === undefined ? {} : { scope }),
  client_name: clientName,
  redirect_uris: [redirectUrl],
  grant_types: ["authorization_code", "refresh_token"],
  response_types: ["code"],
  token_endpoint_auth_method: "none",
});

/**
 * The official MCP client's OAuth provider with a headless browser (browser-steps.ts) instead of a
 * person: it keeps what the SDK hands it (registration, tokens, PKCE verifier, the authorization
 * URL it would open) and records every token for the log scan. With `clientMetadataUrl` the client
 * id is that Client ID Metadata Document's URL and nothing is registered.
 */
export class HeadlessProvider implements OAuthClientProvider {
  authorizationUrl: URL | undefined;
  info: OAuthClientInformationMixed | undefined;
  saved: OAuthTokens | undefined;
  verifier = "";
  readonly redirectUrl: string;
  readonly clientMetadata: OAuthClientMetadata;
  readonly clientMetadataUrl: string | undefined;
  constructor(redirectUrl: string, clientMetadata: OAuthClientMetadata, clientMetadataUrl?: string) {
    this.redirectUrl = redirectUrl;
    this.clientMetadata = clientMetadata;
    this.clientMetadataUrl = clientMetadataUrl;
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

/**
 * The official client's OAuth flow up to its tokens: a first connect to `resource` is refused
 * (401: discovery, then registration unless the client id is a metadata document), the headless
 * browser signs `user` in and consents (`choice`), and the code is exchanged. `authorizationUrl`
 * may change the URL the browser opens (e.g. its scope). Answers where the browser was sent back.
 *
 * @example
 * await authorizeHeadless(new URL(stack.mcp.resource), provider, user, { tenantId });
 * const client = new Client({ name: "t", version: "0" }); // connects with provider's tokens
 */
export async function authorizeHeadless(
  resource: URL,
  provider: HeadlessProvider,
  user: { email: string; password: string },
  choice: Parameters<typeof authorizeInBrowser>[2] = {},
  authorizationUrl: (url: URL) => URL = (url) => url,
): Promise<URL> {
  const transport = new StreamableHTTPClientTransport(resource, { authProvider: provider });
  await assert.rejects(new Client({ name: "t", version: "0" }).connect(transport), UnauthorizedError);
  const back = await authorizeInBrowser(authorizationUrl(provider.authorizationUrl!), user, choice);
  await transport.finishAuth(back.searchParams.get("code")!);
  return back;
}
