import { type CallerIdentity, OWN_ANSWER_HEADERS } from "@flowstate/edge-gateway/pipeline";
import { DomainError } from "@flowstate/shared/errors/domain-error";
import { createServiceApp } from "@flowstate/shared/http/app";
import type { MetricsRegistry } from "@flowstate/shared/http/metrics";
import type { ServiceEnv } from "@flowstate/shared/http/types";
import { utf8Body } from "@flowstate/shared/http/utf8-body";
import type { Logger } from "@flowstate/shared/log/logger";
import type { HttpBindings } from "@hono/node-server";
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import type { Context, Hono } from "hono";
import type { AuditSink } from "./audit.ts";
import { grantOf } from "./grant.ts";
import type { Pipeline } from "./pipeline.ts";
import { buildServer, type Caller, visibleTools } from "./server.ts";
import type { Scope } from "./tools/tool.ts";

export interface McpAppOptions {
  pipeline: Pick<Pipeline, "gateway">;
  /** The canonical resource URI (`<public origin>/mcp`): the audience tokens must carry. */
  resource: string;
  /** The authorization server (the REST gateway's origin, identity-svc's issuer). */
  issuer: string;
  allowedOrigins: readonly string[];
  logger: Logger;
  metrics?: MetricsRegistry;
  /** `<SERVICE_PREFIX>-<STAGE>`, for the principal a seller's role refused (tool-result.ts). */
  principalPrefix?: string;
  /** Each tool call's audit record, published in batches (audit.ts); absent: none published. */
  audit?: AuditSink;
}

/** Served by node-server (serve.ts), whose Node request gives the caller's address; absent under `app.request()`. */
type McpEnv = ServiceEnv & { Bindings: Partial<HttpBindings> };

const SCOPES: Scope[] = ["marketplace:read", "marketplace:write", "account"];
const rpcError = (c: Context, status: 400 | 403 | 404 | 405, message: string, headers: Record<string, string> = {}) =>
  c.json({ jsonrpc: "2.0", error: { code: -32000, message }, id: null }, status, headers);

/**
 * mcp-gateway's HTTP layer: Protected Resource Metadata (RFC 9728), and Streamable HTTP at `/mcp`
 * and `/mcp/tenants/{id}`, stateless (POST only; GET and DELETE 405). Before the SDK reads the
 * JSON-RPC: Origin, the credential (the pipeline's own authentication, revocation included: 401
 * with `WWW-Authenticate: Bearer resource_metadata=…`), a batch (400, -32600), the tenant of the
 * path (404 unless it is the credential's tenant and the caller may read it), and the scope of a
 * single `tools/call` (403 `insufficient_scope`). Each tool call is authorized again where it runs
 * (authorize-call.ts).
 */
export function createMcpApp(o: McpAppOptions): Hono<McpEnv> {
  const metadataUrl = `${new URL(o.resource).origin}/.well-known/oauth-protected-resource/mcp`;
  const challenge = (extra: string) => `Bearer resource_metadata="${metadataUrl}"${extra}`;
  // RFC 6750 §3 `scope`: what a token for this resource needs. MCP 2025-11-25 clients ask for the
  // 401's scope first, then the metadata's scopes_supported: the same list here, so both agree.
  const unauthorized = (extra = "") => challenge(`, scope="${SCOPES.join(" ")}"${extra}`);
  const prm = {
    resource: o.resource,
    authorization_servers: [o.issuer],
    scopes_supported: SCOPES,
    bearer_methods_supported: ["header"],
    resource_name: "Flowstate",
  };
  const invalidToken = (c: Context, description: string) =>
    c.json({ error: "invalid_token", error_description: description }, 401, {
      "www-authenticate": unauthorized(', error="invalid_token"'),
    });
  const scopeChallenge = (c: Context, scope: Scope) =>
    rpcError(c, 403, `this tool needs the ${scope} scope`, {
      "www-authenticate": challenge(`, error="insufficient_scope", scope="${scope}"`),
    });
  const app = createServiceApp<McpEnv>({
    name: "mcp-gateway",
    logger: o.logger,
    metrics: o.metrics,
    bodyLimitBytes: 256 * 1024,
    // Every answer: HSTS, nosniff, and no-store (tool results are a caller's data). /metrics is on
    // the internal port (main.ts).
    responseHeaders: OWN_ANSWER_HEADERS,
    metricsRoute: false,
    // Every tool call goes through the pipeline, which needs identity-svc (its breaker and /healthz).
    readiness: { "identity-svc": () => o.pipeline.gateway.identityReady() },
    readinessTimeoutMs: 3_000,
  });
  app.get("/.well-known/oauth-protected-resource/mcp", (c) => c.json(prm));
  app.get("/.well-known/oauth-protected-resource", (c) => c.json(prm));
  for (const path of ["/mcp", "/mcp/tenants/:id"]) {
    app.on(["GET", "DELETE"], path, (c) =>
      rpcError(c, 405, "Method not allowed: this server is stateless, POST only.", { allow: "POST" }),
    );
    app.post(path, async (c) => {
      const origin = c.req.header("origin");
      if (origin && origin !== new URL(o.resource).origin && !o.allowedOrigins.includes(origin)) {
        return rpcError(c, 403, "Origin not allowed");
      }
      const authorization = c.req.header("authorization");
      if (!authorization) return c.json({ error: "invalid_request" }, 401, { "www-authenticate": unauthorized() });
      let identity: CallerIdentity;
      try {
        identity = await o.pipeline.gateway.authenticate(authorization);
      } catch (err) {
        if (!(err instanceof DomainError) || err.kind !== "unauthenticated") throw err;
        return invalidToken(c, err.message);
      }
      let body: unknown;
      try {
        // Not c.req.json(): it decodes bytes that are not UTF-8 as U+FFFD, and the altered text
        // would reach the services (and storage) as if the client had sent it.
        const text = await utf8Body(c);
        if (text === undefined) throw new Error("not UTF-8");
        body = JSON.parse(text);
      } catch {
        return c.json({ jsonrpc: "2.0", error: { code: -32700, message: "Parse error" }, id: null }, 400);
      }
      // MCP 2025-06-18 removed JSON-RPC batching (the SDK negotiates 2025-11-25 with current
      // clients), and a batch once ran its calls past the scope check below (issue 20): refused
      // before the tenant is looked up or any tool runs. Each call is also authorized where it
      // runs (authorize-call.ts), so no other envelope can skip that either.
      if (Array.isArray(body)) {
        return c.json(
          {
            jsonrpc: "2.0",
            error: {
              code: -32600,
              message: "Invalid Request: JSON-RPC batches are not supported (MCP 2025-06-18 and later)",
            },
            id: null,
          },
          400,
        );
      }
      const grant = grantOf(identity, authorization);
      const incoming = c.env?.incoming;
      const caller = {
        authorization,
        requestId: c.get("requestId"),
        address: incoming ? o.pipeline.gateway.clientAddress(incoming) : "unknown",
      };
      const pathTenant = c.req.param("id");
      if (pathTenant) {
        // The credential acts in one tenant (the key's, or the one chosen at consent; none for an
        // account-only token), so any other looks missing, even one the person belongs to. The
        // membership of a person is still checked, for tools/list and initialize too.
        // A person's membership from the door's cached facts (invalidated before any change is
        // answered, as for a REST tenant route): no request through the pipeline per call.
        const readable =
          pathTenant === grant.tenantId &&
          (identity.kind === "api_key" || (await o.pipeline.gateway.memberRole(pathTenant, identity.sub)) !== null);
        if (!readable) return rpcError(c, 404, "No such tenant for this credential");
      }
      const tenantId = pathTenant ?? grant.tenantId;
      const call = body as { method?: string; params?: { name?: string } };
      const tool =
        call?.method === "tools/call" ? visibleTools(identity).find((t) => t.name === call.params?.name) : undefined;
      if (tool && !grant.scopes.has(tool.scope)) {
        o.audit?.record({
          tool: tool.name,
          identity,
          tenantId: tool.person ? undefined : tenantId,
          outcome: "denied",
          code: "insufficient_scope",
          durationMs: 0,
          requestId: caller.requestId,
        });
        return scopeChallenge(c, tool.scope);
      }
      const perRequest: Caller = {
        ...caller,
        identity,
        grant,
        tenantId,
        audit: o.audit,
        principalPrefix: o.principalPrefix,
      };
      const server = buildServer(perRequest, o.pipeline.gateway, tool);
      const transport = new WebStandardStreamableHTTPServerTransport({
        sessionIdGenerator: undefined,
        enableJsonResponse: true,
      });
      await server.connect(transport);
      // Never closed: in JSON-response mode the transport drops the request's entries once it has
      // answered, and neither object holds a timer or socket, so both go with the request. close()
      // would only abort the finished handler's signal and build a ConnectionClosed McpError (with
      // its stack) per call: measured, 5% of this process's CPU, and ~12 KB per call kept alive for
      // seconds after the answer (~1 KB without it).
      const answer = await transport.handleRequest(c.req.raw, { parsedBody: body });
      // A refusal decided where the tool ran that only HTTP can carry (a client steps up on 403).
      const refused = perRequest.challenge;
      if (refused?.status === 401) return invalidToken(c, refused.description);
      if (refused?.status === 403) return scopeChallenge(c, refused.scope);
      return answer;
    });
  }
  return app;
}
