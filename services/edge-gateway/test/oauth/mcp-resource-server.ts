import { SessionState } from "@flowstate/contracts/internal/identity";
import { type AccessTokenClaims, verifyAccessToken } from "@flowstate/shared/auth/access-token";
import { bodyless, IDENTITY_HEADER } from "@flowstate/shared/auth/identity-assertion";
import { JwksKeys } from "@flowstate/shared/auth/jwks-keys";
import { serviceSigner, testKeyring } from "@flowstate/shared/auth/keyring";
import { DomainError } from "@flowstate/shared/errors/domain-error";
import { serve } from "@flowstate/shared/http/serve";
import { createLogger } from "@flowstate/shared/log/logger";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import { Hono } from "hono";
import { z } from "zod";

export interface ResourceServerOptions {
  port: number;
  /** The authorization server's issuer (the gateway's origin); JWKS fetched from it. */
  issuer: string;
  /** identity-svc's own URL and assertion key, for the revocation check of every call. */
  identityUrl: string;
  secret: string;
  /** The verifier's clock (tests move it with identity-svc's). */
  now?: () => number;
}

/**
 * The smallest honest MCP resource server, for the OAuth acceptance test until mcp-gateway exists:
 * Protected Resource Metadata (RFC 9728), 401 with `WWW-Authenticate: Bearer resource_metadata=…`,
 * tokens verified with the shared helper for this server's audience, the session (revocation)
 * checked with identity-svc on every call, and a stateless McpServer per POST with one tool.
 */
export async function startMcpResourceServer(o: ResourceServerOptions) {
  const origin = `http://127.0.0.1:${o.port}`;
  const resource = `${origin}/mcp`;
  const metadataUrl = `${origin}/.well-known/oauth-protected-resource/mcp`;
  const keys = new JwksKeys({
    fetchJwks: async () => (await fetch(`${o.issuer}/.well-known/jwks.json`)).json(),
    minRefetchMs: 1_000,
    refreshMs: 60_000,
  });
  const prm = {
    resource,
    authorization_servers: [o.issuer],
    scopes_supported: ["marketplace:read", "marketplace:write", "account"],
    bearer_methods_supported: ["header"],
  };
  const challenge = (error?: string) => `Bearer resource_metadata="${metadataUrl}"${error ? `, error="${error}"` : ""}`;

  async function sessionActive(claims: AccessTokenClaims): Promise<boolean> {
    const target = `/internal/v1/sessions/${claims.sid}?iat=${claims.iat}`;
    const header = serviceSigner(testKeyring("mcp-gateway", o.secret), "identity-svc")(bodyless("GET", target));
    const res = await fetch(`${o.identityUrl}${target}`, { headers: { [IDENTITY_HEADER]: header } });
    if (res.status !== 200) return false;
    const state = SessionState.parse(await res.json());
    return state.active && state.sub === claims.sub;
  }

  const app = new Hono<{ Variables: { claims: AccessTokenClaims } }>();
  app.get("/.well-known/oauth-protected-resource/mcp", (c) => c.json(prm));
  app.get("/.well-known/oauth-protected-resource", (c) => c.json(prm));
  app.use("/mcp", async (c, next) => {
    const auth = c.req.header("authorization");
    if (!auth?.startsWith("Bearer ")) return c.body(null, 401, { "www-authenticate": challenge() });
    try {
      const claims = await verifyAccessToken(auth.slice(7), {
        keys,
        issuer: o.issuer,
        audience: resource,
        ...(o.now ? { now: o.now } : {}),
      });
      if (!(await sessionActive(claims))) throw new Error("revoked");
      c.set("claims", claims);
    } catch (err) {
      if (!(err instanceof DomainError) && (err as Error).message !== "revoked") throw err;
      return c.json({ error: "invalid_token" }, 401, { "www-authenticate": challenge("invalid_token") });
    }
    await next();
  });
  app.on(["GET", "DELETE"], "/mcp", (c) =>
    c.json({ jsonrpc: "2.0", error: { code: -32000, message: "Method not allowed." }, id: null }, 405),
  );
  app.post("/mcp", async (c) => {
    const claims = c.get("claims");
    const server = new McpServer({ name: "oauth-test-resource", version: "0.0.0" });
    server.registerTool(
      "whoami",
      {
        description: "Who the token says the caller is.",
        inputSchema: z.strictObject({}),
        outputSchema: {
          sub: z.string(),
          client_id: z.string(),
          tenant_id: z.string().nullable(),
          scopes: z.array(z.string()),
        },
        annotations: { readOnlyHint: true, openWorldHint: false },
      },
      async () => {
        const out = {
          sub: claims.sub,
          client_id: claims.clientId ?? "",
          tenant_id: claims.tenantId ?? null,
          scopes: claims.scopes,
        };
        return { content: [{ type: "text", text: JSON.stringify(out) }], structuredContent: out };
      },
    );
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: true,
    });
    await server.connect(transport);
    return transport.handleRequest(c.req.raw);
  });

  const running = await serve(app, {
    host: "127.0.0.1",
    port: o.port,
    logger: createLogger({ service: "mcp-test-resource" }),
    handleSignals: false,
    drainTimeoutMs: 500,
  });
  return { resource, metadataUrl, origin, close: () => running.shutdown("test done") };
}
