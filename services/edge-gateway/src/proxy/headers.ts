import { INVALIDATE_HEADER } from "@flowstate/contracts/internal/identity";
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
