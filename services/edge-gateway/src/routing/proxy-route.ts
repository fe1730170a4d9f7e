import type { IncomingHttpHeaders } from "node:http";
import type { BlockList } from "node:net";
import type { Channel, TenantContext } from "@flowstate/contracts/internal/identity";
import type { FlowstateServiceName } from "@flowstate/contracts/services/catalog";
import type { DoorSign } from "@flowstate/shared/auth/gateway-signer";
import { bodyless, IDENTITY_HEADER, sha256Base64url } from "@flowstate/shared/auth/identity-assertion";
import { apiKeyNotAllowed } from "@flowstate/shared/auth/tenant-refusal";
import { DomainError } from "@flowstate/shared/errors/domain-error";
import type { ResponseSink } from "@flowstate/shared/http/access-log";
import type { AccessState } from "../auth/access-state.ts";
import type { AccessTokenVerifier } from "../auth/access-token.ts";
import { authenticate, type CallerIdentity } from "../auth/authenticate.ts";
import { credentialOf } from "../auth/credential.ts";
import { requireFeature } from "../auth/feature-gate.ts";
import { authorizeTenant } from "../auth/tenant-access.ts";
import { clientAddress } from "../http/client-address.ts";
import { type ForwardHooks, forward } from "../proxy/forward.ts";
import { deviceCookieHeader, upstreamHeaders } from "../proxy/headers.ts";
import type { Upstreams } from "../proxy/upstreams.ts";
import type { RateLimits } from "../ratelimit/rate-limits.ts";
import type { RouteMatch } from "./route-table.ts";

export interface RouteDeps {
  upstreams: Upstreams;
  tokens: AccessTokenVerifier;
  state: AccessState;
  limits: RateLimits;
  /**
   * Signs the `flowstate-identity` assertion for the route's service (doorSigner: its
   * `gateway--<service>` key, ADR 0014; a bodyless request's header is reused for up to 1 s).
   */
  sign: DoorSign;
  /** Signed into the assertion: which door the caller came through (see GatewayDeps.channel). */
  channel: Channel;
  hooks: ForwardHooks;
  bodyLimitBytes: number;
  /** Proxies whose X-Forwarded-For is believed (TRUSTED_PROXIES); none by default. */
  trustedProxies?: BlockList | undefined;
}

/**
 * What a route reads of the client's request: Node's IncomingMessage, or the stand-in of an
 * in-process call (local-call.ts), whose socket's address is the one its caller established.
 */
export interface InboundRequest extends Pick<NodeJS.ReadableStream, "on" | "off" | "once" | "resume"> {
  method?: string | undefined;
  headers: IncomingHttpHeaders;
  rawHeaders: string[];
  /** False while the body is still arriving (an early close is then a cut-off body). */
  complete: boolean;
  socket: { remoteAddress?: string | undefined };
}

export interface RouteCall extends RouteMatch {
  req: InboundRequest;
  res: ResponseSink;
  requestId: string;
  /** The decoded path, as the service's Hono computes `c.req.path` (what the route table matched). */
  path: string;
  /** The normalised path and query sent upstream: what the assertion is bound to. */
  target: string;
}

const tooLarge = (limit: number) =>
  new DomainError("too_large", "PAYLOAD_TOO_LARGE", `the request body exceeds ${limit} bytes`);

/**
 * One registry route, end to end: the service's circuit breaker, body size, authentication and revocation (unless public),
 * rate limits, tenant membership, role and feature flag (tenant routes), then the request streamed to the
 * owning service with the signed identity, and its answer relayed. Refusals are DomainErrors,
 * rendered by the caller (gateway-fetch.ts) in the one problem shape.
 */
export async function proxyRoute(call: RouteCall, deps: RouteDeps): Promise<number> {
  const { route, req, res, requestId } = call;
  const { upstreams, tokens, state, limits, bodyLimitBytes } = deps;
  const upstream = upstreams.get(route.service);
  if (upstream === undefined) {
    throw new DomainError(
      "unavailable",
      "SERVICE_UNAVAILABLE",
      `${route.service} is not available in this deployment`,
      { retryAfter: 30 },
    );
  }
  // While the service's breaker is open: 503 with Retry-After at once, before any other work.
  upstream.breaker.admit();
  const declared = req.headers["content-length"];
  if (declared !== undefined && Number(declared) > bodyLimitBytes) throw tooLarge(bodyLimitBytes);

  const address = clientAddress(req, deps.trustedProxies);
  let identity: CallerIdentity | undefined;
  let tenant: TenantContext | undefined;
  if (route.auth === "public") {
    limits.anonymous(address);
  } else {
    const credential = credentialOf(req.headers.authorization);
    // A credential not seen before costs a signature check or an identity-svc call: that work
    // is limited per client address before it is done, so garbage cannot buy CPU.
    if (
      credential.kind === "api_key" ||
      (credential.kind === "access_token" && tokens.peek(credential.token) === undefined)
    ) {
      limits.anonymous(address);
    }
    identity = await authenticate(credential, tokens, state);
    limits.credential(identity.kind === "user" ? identity.sub : identity.key_id);
    if (route.auth === "user" && identity.kind === "api_key") throw apiKeyNotAllowed();
    if (route.auth === "tenant") {
      tenant = await authorizeTenant(route, call.params.id ?? "", identity, state);
      limits.tenant(tenant.tenant_id);
      await requireFeature(route, tenant.tenant_id, state);
    }
  }

  const method = req.method!;
  const extra = ["x-request-id", requestId, "x-forwarded-for", address];
  if (route.service === "identity-svc" && route.auth === "public")
    extra.push(...deviceCookieHeader(req.headers.cookie));
  // The body is read whole (it is bounded by the limit) because the assertion binds its SHA-256:
  // a captured header must not carry another body (ADR 0002). Only after the caller passed every
  // check above, so a refused request costs no buffering.
  let body: Buffer | null = null;
  if (
    method !== "GET" &&
    method !== "HEAD" &&
    (declared !== undefined || req.headers["transfer-encoding"] !== undefined)
  ) {
    body = await readLimited(req, bodyLimitBytes);
    if (declared === undefined) extra.push("content-length", String(body.length));
  }
  if (identity !== undefined) {
    const binding =
      body === null
        ? bodyless(method, call.target)
        : { method, target: call.target, bodySha256: sha256Base64url(body) };
    extra.push(
      IDENTITY_HEADER,
      deps.sign(route.service as FlowstateServiceName, binding, { identity, tenant, channel: deps.channel }),
    );
  }
  const headers = upstreamHeaders(req.rawHeaders, extra);
  // What a write changes of access (a member added or removed, a role changed, a key revoked, a
  // flag set, a tenant deleted) identity-svc names in its answer's flowstate-invalidate header,
  // grants as well as revocations, and the relay applies it before the answer goes on
  // (relay-handler.ts). Nothing else is dropped: a write that changes no access (a rename, an
  // offer) leaves this instance's cached memberships of the tenant as they are.
  return forward(
    upstream,
    { method, path: call.target, headers, body, requestId, authenticated: identity !== undefined },
    res,
    deps.hooks,
  );
}

/**
 * The request body, read whole while counting: a declared Content-Length over the limit was
 * refused before this, a chunked upload is cut off as soon as it passes the limit.
 */
function readLimited(req: InboundRequest, limit: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size <= limit) return void chunks.push(chunk);
      req.off("data", onData);
      req.resume(); // drain the rest so the connection stays usable
      reject(tooLarge(limit));
    };
    req.on("data", onData);
    req.once("end", () => resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks)));
    req.once("error", reject);
    // A client that goes away mid-body: nobody is left to answer, but the promise must settle.
    req.once("close", () => {
      if (!req.complete) reject(new DomainError("invalid", "BAD_REQUEST", "the request body ended early"));
    });
  });
}
