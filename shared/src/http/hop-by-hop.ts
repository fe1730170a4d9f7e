/**
 * RFC 9110 section 7.6.1: headers meaningful for one connection only, never relayed by a proxy in
 * either direction, plus those a message's own `Connection` header names.
 */
export const HOP_BY_HOP_HEADERS: readonly string[] = [
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
 * The header names a `Connection` header value declares hop-by-hop (lower-cased).
 *
 * @example
 * connectionTokens("keep-alive, X-Secret-Hop") // Set { "keep-alive", "x-secret-hop" }
 */
export function connectionTokens(value: string | undefined): Set<string> | undefined {
  if (!value) return undefined;
  return new Set(value.split(",").map((t) => t.trim().toLowerCase()));
}
