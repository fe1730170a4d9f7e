import { INVALIDATE_HEADER } from "@flowstate/contracts/internal/identity";
import { DEVICE_COOKIE } from "@flowstate/contracts/rest/identity/auth";
import { IDENTITY_HEADER } from "@flowstate/shared/auth/identity-assertion";
import { connectionTokens, HOP_BY_HOP_HEADERS } from "@flowstate/shared/http/hop-by-hop";
import { acceptableHeaderValue, validTraceparent, validTracestate } from "@flowstate/shared/http/inbound-headers";

/**
 * Request headers that never reach a service: the caller's credentials (the service gets the
 * signed identity instead; a token handed on is a token that can leak), anything claiming to be
 * the gateway's own assertion or invalidation, and what the gateway sets itself.
 */
const NOT_FORWARDED = new Set([
  ...HOP_BY_HOP_HEADERS,
  "host",
  "authorization",
  "cookie",
  "x-api-key",
  IDENTITY_HEADER,
  INVALIDATE_HEADER,
  "x-request-id",
  "x-forwarded-for",
  "forwarded",
  // validated and added last (see below)
  "traceparent",
  "tracestate",
]);

/**
 * Builds the upstream request's headers as undici's flat `[name, value, …]` list from the
 * client's raw header list, in one pass with no intermediate objects. Every forwarded value is
 * validated first (shared/src/http/inbound-headers.ts): one that fails is dropped, so a malformed
 * header can neither reach a service's logs or events nor fail the request.
 *
 * @example
 * upstreamHeaders(req.rawHeaders, [IDENTITY_HEADER, assertion, "x-request-id", requestId])
 */
export function upstreamHeaders(raw: readonly string[], extra: readonly string[]): string[] {
  const out: string[] = [];
  let connection: Set<string> | undefined;
  const traceparents: string[] = [];
  const tracestates: string[] = [];
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i]!;
    if (name.length === 10 && name.toLowerCase() === "connection") connection = connectionTokens(raw[i + 1]);
    else if (name.length === 11 && name.toLowerCase() === "traceparent") traceparents.push(raw[i + 1]!);
    else if (name.length === 10 && name.toLowerCase() === "tracestate") tracestates.push(raw[i + 1]!);
  }
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i]!.toLowerCase();
    if (NOT_FORWARDED.has(name) || connection?.has(name)) continue;
    const value = raw[i + 1]!;
    if (acceptableHeaderValue(value)) out.push(name, value);
  }
  const traceparent = traceparents.length ? validTraceparent(traceparents) : undefined;
  if (traceparent) {
    out.push("traceparent", traceparent);
    const tracestate = validTracestate(tracestates);
    if (tracestate) out.push("tracestate", tracestate);
  }
  for (const value of extra) out.push(value);
  return out;
}

const DEVICE_COOKIE_VALUE = /^dvt_[A-Za-z0-9_-]{43}$/;

/**
 * The one cookie a service gets (`cookie` is never forwarded otherwise): identity-svc's device
 * cookie, for its public routes (the authorization page's sign-in reads it; issue 20 finding 7).
 * It is no credential (it only takes a browser out of an account's sign-in backoff), and it is
 * passed on alone, well-formed, so no other cookie of the origin leaves the gateway.
 *
 * @example
 * deviceCookieHeader("a=1; __Host-flowstate-device=dvt_…") // ["cookie", "__Host-flowstate-device=dvt_…"]
 */
export function deviceCookieHeader(cookie: string | undefined): string[] {
  if (!cookie) return [];
  for (const part of cookie.split(";")) {
    const eq = part.indexOf("=");
    if (eq > 0 && part.slice(0, eq).trim() === DEVICE_COOKIE) {
      const value = part.slice(eq + 1).trim();
      return DEVICE_COOKIE_VALUE.test(value) ? ["cookie", `${DEVICE_COOKIE}=${value}`] : [];
    }
  }
  return [];
}
