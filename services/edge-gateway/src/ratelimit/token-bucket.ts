import { LruCache } from "@flowstate/shared/cache/lru";

export interface BucketRule {
  /** Sustained requests per second. */
  ratePerSec: number;
  /** Requests allowed at once from a full bucket. */
  burst: number;
}

/** `{ ok: true }`, or how long until one request would be allowed (for `Retry-After`). */
export type TakeResult = { ok: true } | { ok: false; retryAfterSec: number };

const ALLOWED: TakeResult = { ok: true };

/**
 * In-memory token buckets, one per key (a credential, a tenant, a client address). Memory only: a
 * gateway instance limits what passes through it, so N instances allow up to N times the rate;
 * the limits are sized for that (see the README). Refill is computed lazily on each take, so
 * there are no timers; the map is bounded and forgets least recently used buckets first, which
 * are the fullest ones, so eviction can only ever be generous by one burst.
 *
 * @example
 * const perTenant = new TokenBuckets({ ratePerSec: 100, burst: 200 }, 100_000);
 * const r = perTenant.take("tnt_abc");
 * if (!r.ok) throw new DomainError("rate_limited", "RATE_LIMITED", "…", { retryAfter: r.retryAfterSec });
 */
export class TokenBuckets {
  readonly rule: BucketRule;
  readonly #buckets: LruCache<{ tokens: number; at: number }>;

  constructor(rule: BucketRule, maxKeys: number) {
    if (!(rule.ratePerSec > 0) || !(rule.burst >= 1))
      throw new RangeError("a bucket needs a positive rate and a burst of at least 1");
    this.rule = rule;
    this.#buckets = new LruCache(maxKeys);
  }

  take(key: string, now = Date.now()): TakeResult {
    const { ratePerSec, burst } = this.rule;
    let bucket = this.#buckets.get(key, now);
    if (bucket === undefined) {
      bucket = { tokens: burst, at: now };
      this.#buckets.set(key, bucket); // the least recently used key goes when full
    } else {
      bucket.tokens = Math.min(burst, bucket.tokens + ((now - bucket.at) / 1000) * ratePerSec);
      bucket.at = now;
    }
    if (bucket.tokens >= 1) {
      bucket.tokens -= 1;
      return ALLOWED;
    }
    return { ok: false, retryAfterSec: Math.max(1, Math.ceil((1 - bucket.tokens) / ratePerSec)) };
  }

  get size(): number {
    return this.#buckets.size;
  }
}
