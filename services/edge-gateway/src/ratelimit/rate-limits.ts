import { DomainError } from "@flowstate/shared/errors/domain-error";
import { type BucketRule, TokenBuckets } from "./token-bucket.ts";

export interface RateLimitSettings {
  /** Per verified credential: an account (all its sessions together) or an API key. */
  credential: BucketRule;
  /** Per tenant, across all its members and keys, on `/v1/tenants/{id}/**`. */
  tenant: BucketRule;
  /** Per client address, for calls without a verified credential (sign-in, sign-up, bad tokens). */
  anonymous: BucketRule;
  /** Buckets kept per kind; least recently used ones are forgotten first. */
  maxKeys: number;
}

/**
 * The gateway's three limits. Each refusal is a 429 RATE_LIMITED problem with `Retry-After`
 * (rendered by the shared error mapping from DomainError.retryAfter).
 *
 * @example
 * limits.credential(`usr:${identity.sub}`);
 */
export class RateLimits {
  readonly #credential: TokenBuckets;
  readonly #tenant: TokenBuckets;
  readonly #anonymous: TokenBuckets;

  constructor(settings: RateLimitSettings) {
    this.#credential = new TokenBuckets(settings.credential, settings.maxKeys);
    this.#tenant = new TokenBuckets(settings.tenant, settings.maxKeys);
    this.#anonymous = new TokenBuckets(settings.anonymous, settings.maxKeys);
  }

  credential(key: string): void {
    check(this.#credential, key, "this credential");
  }

  tenant(tenantId: string): void {
    check(this.#tenant, tenantId, "this tenant");
  }

  anonymous(address: string): void {
    check(this.#anonymous, address, "unauthenticated calls from this address");
  }
}

function check(buckets: TokenBuckets, key: string, who: string): void {
  const taken = buckets.take(key);
  if (!taken.ok) {
    throw new DomainError(
      "rate_limited",
      "RATE_LIMITED",
      `too many requests for ${who}; retry after ${taken.retryAfterSec} s`,
      {
        retryAfter: taken.retryAfterSec,
      },
    );
  }
}
