import { LruCache } from "../cache/lru.ts";
import { DomainError } from "../errors/domain-error.ts";
import {
  type Assertion,
  type HeaderCheck,
  MAX_HELD_MS,
  MAX_SKEW_MS,
  type RequestBinding,
} from "./identity-assertion.ts";

/**
 * Both ends of the identity assertion (the doors' signer: gateway-signer.ts), with bounded caches that take the HMAC (and, on the
 * service side, the JSON parse and schema check) off the hot path when one caller repeats one
 * bodyless call (a GET polled by a dashboard, the bench's tenant read).
 *
 * Neither cache weakens the assertion. A header is a bearer of (identity, tenant, method, target,
 * body hash) for MAX_SKEW_MS after it is issued whatever we do: a captured one can already be
 * replayed on the identical request within that window. Reusing our own header for up to a second,
 * or remembering that a header was genuine until it leaves the window, accepts nothing the HMAC
 * would refuse. What the gateway decides per request (revocation, membership, role, rate limits)
 * is decided before the header is asked for, every time; a changed role is another payload,
 * another header. Requests with a body are signed fresh: their hash rarely repeats, so caching
 * them would only churn the LRU.
 */

export interface AssertionSignerOptions {
  /** How long one signed header is reused for the same identity, tenant and bodyless request (default 1000 ms). */
  reuseMs?: number;
  /** Entries kept, least recently used dropped first (default 10 000). */
  max?: number;
}

export interface AssertionVerifierOptions {
  /** Verified headers remembered, least recently used dropped first (default 10 000). */
  max?: number;
}

export interface VerifiedAssertion {
  assertion: Assertion;
  /** When the gateway signed it (ms since the epoch). */
  issued: number;
}

/**
 * The answer to a genuine assertion that was held on its way past its window (identity-assertion.ts,
 * MAX_HELD_MS): the request is refused and nothing is done, as for any aged assertion, but the
 * caller is told what happened, a slow service, and to retry, instead of being told its
 * credential is bad. A replay of a captured header in those seconds gets the same refusal.
 */
export const assertionHeld = () =>
  new DomainError(
    "unavailable",
    "UPSTREAM_UNAVAILABLE",
    "the service was too slow to take this request; nothing was done, retry it",
    { retryAfter: 1 },
  );

/** Classifies one header for one request (a keyring's check, keyring.ts). */
export type HeaderChecker = (binding: RequestBinding, header: string, now: number) => HeaderCheck;

/**
 * A service's verifier around a header check (keyring.ts `keyringVerifier`): a header seen before
 * is accepted again only for the very request it was verified for (method, target, body hash) and
 * only while its timestamp is within the skew window; anything else (an unseen header, a known
 * header with another body or target) goes through the full check. Failures are never cached, so
 * garbage cannot evict good entries faster than it could anyway. A genuine header for this request
 * that aged past its window by at most MAX_HELD_MS (held in a stalled service's queue) throws
 * `assertionHeld()`: 503 with Retry-After, never 401. The check may throw (a signer the verifier
 * holds no key for: 403); a throw is never cached.
 *
 * @example
 * const verify = cachedVerifier((binding, header, now) => checkKeyedHeader(keys, binding, header, now));
 * const verified = verify(await requestBinding(c), c.req.header(IDENTITY_HEADER)); // null → 401; held → throws 503
 */
export function cachedVerifier(check: HeaderChecker, options: AssertionVerifierOptions = {}) {
  const max = options.max ?? 10_000;
  const verified = new LruCache<{ binding: RequestBinding; result: VerifiedAssertion }>(max);
  const same = (a: RequestBinding, b: RequestBinding) =>
    a.method === b.method && a.target === b.target && a.bodySha256 === b.bodySha256;
  return function verify(
    binding: RequestBinding,
    header: string | undefined | null,
    now = Date.now(),
  ): VerifiedAssertion | null {
    if (!header) return null;
    const hit = verified.get(header, now);
    if (hit !== undefined && same(hit.binding, binding)) {
      const age = now - hit.result.issued;
      if (Math.abs(age) <= MAX_SKEW_MS) return hit.result;
      verified.delete(header);
      if (age > MAX_SKEW_MS && age <= MAX_SKEW_MS + MAX_HELD_MS) throw assertionHeld();
      return null;
    }
    const result = check(binding, header, now);
    if (result.status === "held") throw assertionHeld();
    if (result.status === "invalid") return null;
    // Shared by every request that presents this header: frozen so no handler can alter another's identity.
    const frozen = Object.freeze({
      issued: result.issued,
      assertion: Object.freeze({
        identity: Object.freeze(result.assertion.identity),
        tenant: result.assertion.tenant && Object.freeze(result.assertion.tenant),
        ...(result.assertion.channel ? { channel: result.assertion.channel } : {}),
      }),
    });
    verified.set(header, { binding: { ...binding }, result: frozen }, result.issued + MAX_SKEW_MS + 1);
    return frozen;
  };
}
