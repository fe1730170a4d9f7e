import { INVALIDATE_HEADER } from "@flowstate/contracts/internal/identity";
import { IDENTITY_HEADER } from "@flowstate/shared/auth/identity-assertion";

/** RFC 9110 section 7.6.1: meaningful for one connection only, never relayed by a proxy. */
const HOP_BY_HOP = [
  "connection",
  "keep-alive",
  "proxy-connection",
  "proxy-authenticate",
  "proxy-authorization",
  "te",
  "trailer",
  "transfer-encoding",
  "upgrade",
];

/**
 * Request headers that never reach a service: the caller's credentials (the service gets the
 * signed identity instead; a token handed on is a token that can leak), anything claiming to be
 * the gateway's own assertion or invalidation, and what the gateway sets itself.
 */
const NOT_FORWARDED = new Set([
  ...HOP_BY_HOP,
  "host",
  "authorization",
  "cookie",
  "x-api-key",
  IDENTITY_HEADER,
  INVALIDATE_HEADER,
  "x-request-id",
  "x-forwarded-for",
  "forwarded",
]);

/** Headers the request's `Connection` header declares hop-by-hop (RFC 9110 section 7.6.1). */
function connectionTokens(value: string | undefined): Set<string> | undefined {
  if (!value) return undefined;
  return new Set(value.split(",").map((t) => t.trim().toLowerCase()));
}

/**
 * Builds the upstream request's headers as undici's flat `[name, value, …]` list from the
 * client's raw header list, in one pass with no intermediate objects.
 *
 * @example
 * upstreamHeaders(req.rawHeaders, [IDENTITY_HEADER, assertion, "x-request-id", requestId])
 */
export function upstreamHeaders(raw: readonly string[], extra: readonly string[]): string[] {
  const out: string[] = [];
  let connection: Set<string> | undefined;
  for (let i = 0; i < raw.length; i += 2) {
    if (raw[i]!.length === 10 && raw[i]!.toLowerCase() === "connection") connection = connectionTokens(raw[i + 1]);
  }
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i]!.toLowerCase();
    if (NOT_FORWARDED.has(name) || connection?.has(name)) continue;
    out.push(name, raw[i + 1]!);
  }
  for (const value of extra) out.push(value);
  return out;
}
