import type { IncomingMessage } from "node:http";
import type { TenantContext } from "@flowstate/contracts/internal/identity";
import type { RouteSpec } from "@flowstate/contracts/rest/route";
import { IDENTITY_HEADER, signAssertion } from "@flowstate/shared/auth/identity-assertion";
import { DomainError } from "@flowstate/shared/errors/domain-error";
import type { ServiceEnv } from "@flowstate/shared/http/types";
import type { Context } from "hono";
import type { AccessTokenVerifier } from "../auth/access-token.ts";
import type { AccessState } from "../auth/access-state.ts";
import { authenticate, type CallerIdentity } from "../auth/authenticate.ts";
import { credentialOf } from "../auth/credential.ts";
import { authorizeTenant } from "../auth/tenant-access.ts";
import { forward, type ForwardHooks } from "../proxy/forward.ts";
import { rawHeaderList, upstreamHeaders } from "../proxy/headers.ts";
import type { Upstreams } from "../proxy/upstreams.ts";
import type { RateLimits } from "../ratelimit/rate-limits.ts";

export interface RouteDeps {
  upstreams: Upstreams;
  tokens: AccessTokenVerifier;
  state: AccessState;
  limits: RateLimits;
  /** HMAC key of the `flowstate-identity` assertion. */
  secret: string;
  hooks: ForwardHooks;
}

type NodeEnv = { incoming?: IncomingMessage } | undefined;
const NO_BODY = new Set(["GET", "HEAD"]);

/**
 * The handler of one registry route: authenticate (unless public), rate-limit, check tenant
 * membership and role (tenant routes), then stream the request to the owning service with the
 * signed identity and relay its answer. Everything it refuses is a DomainError rendered as
 * problem+json by the shared onError.
 */
export function routeHandler(route: RouteSpec, deps: RouteDeps) {
  const { upstreams, tokens, state, limits, secret, hooks } = deps;
  return async (c: Context<ServiceEnv>): Promise<Response> => {
    const pool = upstreams.pool(route.service);
    if (pool === undefined) {
      throw new DomainError("unavailable", "SERVICE_UNAVAILABLE", `${route.service} is not available in this deployment`, { retryAfter: 30 });
    }
    const incoming = (c.env as NodeEnv)?.incoming;
    const address = incoming?.socket.remoteAddress ?? "local";
    let identity: CallerIdentity | undefined;
    let tenant: TenantContext | undefined;
    if (route.auth === "public") {
      limits.anonymous(address);
    } else {
      const credential = credentialOf(c.req.header("authorization"));
      // A credential not seen before costs a signature check or an identity-svc call: that work
      // is limited per client address before it is done, so garbage cannot buy CPU.
      if (credential.kind === "api_key" || (credential.kind === "access_token" && tokens.peek(credential.token) === undefined)) {
        limits.anonymous(address);
      }
      identity = await authenticate(credential, tokens, state);
      limits.credential(identity.kind === "user" ? identity.sub : identity.key_id);
      if (route.auth === "user" && identity.kind === "api_key") {
        throw new DomainError("forbidden", "API_KEY_NOT_ALLOWED", "this route needs a user's access token, not an API key");
      }
      if (route.auth === "tenant") {
        tenant = await authorizeTenant(route, c.req.param("id") ?? "", identity, state);
        limits.tenant(tenant.tenant_id);
      }
    }

    const requestId = c.get("requestId");
    const method = c.req.method;
    const extra = ["x-request-id", requestId, "x-forwarded-for", address];
    if (identity !== undefined) {
      // Signed over the path as the service's Hono computes it (c.req.path), so both ends agree.
      extra.push(IDENTITY_HEADER, signAssertion(secret, method, c.req.path, { identity, tenant, request_id: requestId }));
    }
    let body: IncomingMessage | Uint8Array | null = null;
    const hasLength = c.req.header("content-length") !== undefined;
    if (!NO_BODY.has(method) && (hasLength || c.req.header("transfer-encoding") !== undefined)) {
      if (incoming !== undefined && hasLength) body = incoming; // streamed: never parsed here
      else {
        // Chunked (or an in-process request): read it, through the body-limit middleware's counter.
        body = new Uint8Array(await c.req.arrayBuffer());
        extra.push("content-length", String(body.byteLength));
      }
    }
    const raw = incoming?.rawHeaders ?? rawHeaderList(c.req.raw.headers);
    const headers = upstreamHeaders(raw, extra);
    if (body instanceof Uint8Array && hasLength) dropContentLength(headers);
    const target = incoming?.url?.startsWith("/") ? incoming.url : pathAndQuery(c.req.url);
    return forward(pool, { method, path: target, headers, body, requestId, head: method === "HEAD" }, hooks);
  };
}

function pathAndQuery(url: string): string {
  const u = new URL(url);
  return u.pathname + u.search;
}

/** The client's Content-Length is replaced by the one of the buffered body (pushed last). */
function dropContentLength(headers: string[]): void {
  const first = headers.indexOf("content-length");
  const last = headers.lastIndexOf("content-length");
  if (first !== last) headers.splice(first, 2);
}
