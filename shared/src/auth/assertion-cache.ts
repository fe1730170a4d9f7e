import { type Assertion, MAX_SKEW_MS, payloadJson, signPayload, verifyAssertionHeader } from "./identity-assertion.ts";

/**
 * Both ends of the identity assertion, with bounded caches that take the HMAC (and, on the
 * service side, the JSON parse and schema check) off the hot path when one caller repeats one call.
 *
 * Neither cache weakens the assertion. A header is a bearer of (identity, tenant, method, path)
 * for MAX_SKEW_MS (30 s) after it is issued whatever we do: a captured one can already be replayed
 * on the same route within that window. Reusing our own header for up to a second, or remembering
 * that a header was genuine until it leaves the window, accepts nothing the HMAC would refuse.
 * What the gateway decides per request (revocation, membership, role, rate limits) is decided
 * before the header is asked for, every time; a changed role is another payload, another header.
 *
 * Map insertion order is the LRU order: a hit is re-inserted, the first key is the oldest.
 */
const touch = <V>(map: Map<string, V>, key: string, value: V, max: number) => {
  map.delete(key);
  map.set(key, value);
  if (map.size > max) map.delete(map.keys().next().value as string);
};

export type AssertionSign = (method: string, path: string, assertion: Assertion, now?: number) => string;

export interface AssertionSignerOptions {
  /** How long one signed header is reused for the same identity, tenant, method and path (default 1000 ms). */
  reuseMs?: number;
  /** Entries kept, least recently used dropped first (default 10 000). */
  max?: number;
}

/**
 * The gateway's signer: the same header for the same (identity, tenant, method, path) within
 * `reuseMs`, so services can also verify it once.
 *
 * @example
 * const sign = assertionSigner(secret);
 * headers.push(IDENTITY_HEADER, sign("GET", "/v1/tenants/tnt_x", { identity, tenant }));
 */
export function assertionSigner(secret: string, options: AssertionSignerOptions = {}): AssertionSign {
  const reuseMs = options.reuseMs ?? 1000;
  const max = options.max ?? 10_000;
  const signed = new Map<string, { header: string; issued: number }>();
  return function sign(method: string, path: string, assertion: Assertion, now = Date.now()): string {
    const json = payloadJson(assertion);
    // The key holds everything the MAC covers but the timestamp. A newline occurs neither in a
    // method nor in JSON.stringify's output (it escapes control characters), so the key splits
    // one way only, whatever the path holds.
    const key = `${method}\n${json}\n${path}`;
    const hit = signed.get(key);
    // `now >= issued`: a clock that stepped back gets a fresh header rather than one from the future.
    if (hit !== undefined && now - hit.issued < reuseMs && now >= hit.issued) {
      touch(signed, key, hit, max);
      return hit.header;
    }
    const header = signPayload(secret, method, path, Buffer.from(json).toString("base64url"), now);
    touch(signed, key, { header, issued: now }, max);
    return header;
  };
}

export interface AssertionVerifierOptions {
  /** Verified headers remembered, least recently used dropped first (default 10 000). */
  max?: number;
}

/**
 * A service's verifier: a header seen before is accepted again only for the method and path it
 * was verified for, and only while its timestamp is within the skew window; anything else (an
 * unseen header, a known header on another route) goes through the full HMAC check. Failures are
 * never cached, so garbage cannot evict good entries faster than it could anyway.
 *
 * @example
 * const verify = assertionVerifier(secret);
 * const assertion = verify(c.req.method, c.req.path, c.req.header(IDENTITY_HEADER)); // null → 401
 */
export function assertionVerifier(secret: string, options: AssertionVerifierOptions = {}) {
  const max = options.max ?? 10_000;
  const verified = new Map<string, { method: string; path: string; issued: number; assertion: Assertion }>();
  return function verify(
    method: string,
    path: string,
    header: string | undefined | null,
    now = Date.now(),
  ): Assertion | null {
    if (!header) return null;
    const hit = verified.get(header);
    if (hit !== undefined && hit.method === method && hit.path === path) {
      if (Math.abs(now - hit.issued) <= MAX_SKEW_MS) {
        touch(verified, header, hit, max);
        return hit.assertion;
      }
      verified.delete(header);
      return null;
    }
    const result = verifyAssertionHeader(secret, method, path, header, now);
    if (result === null) return null;
    // Shared by every request that presents this header: frozen so no handler can alter another's identity.
    const assertion = Object.freeze({
      identity: Object.freeze(result.assertion.identity),
      tenant: result.assertion.tenant && Object.freeze(result.assertion.tenant),
      ...(result.assertion.channel ? { channel: result.assertion.channel } : {}),
    });
    touch(verified, header, { method, path, issued: result.issued, assertion }, max);
    return assertion;
  };
}
