import { type CryptoKey, importJWK, type JWK } from "jose";
import { z } from "zod";

/** Only what identity-svc publishes and we accept: P-256 public keys for ES256, each with a kid. */
const PublicJwk = z.object({
  kty: z.literal("EC"),
  crv: z.literal("P-256"),
  kid: z.string().min(1).max(200),
  x: z.string(),
  y: z.string(),
  alg: z.literal("ES256").optional(),
  use: z.literal("sig").optional(),
});
const Jwks = z.object({ keys: z.array(z.unknown()).max(50) });
const FAILED_FETCH_BACKOFF_MS = 500;

export interface JwksKeysOptions {
  /** Fetches identity-svc's `/.well-known/jwks.json` and returns the parsed JSON. */
  fetchJwks: () => Promise<unknown>;
  /** Least time between two fetches triggered by an unknown kid: a stream of forged kids cannot hammer identity-svc. */
  minRefetchMs: number;
  /** A known-good set is refreshed in the background this often, so a withdrawn key stops verifying. */
  refreshMs: number;
}

/**
 * The signing keys access tokens may be verified with, by kid. A token naming an unknown kid
 * triggers one refetch (a rotation publishes the new key before signing with it), rate limited;
 * a key withdrawn from the JWKS disappears at the next refresh and tokens signed with it stop
 * verifying even if already cached (AccessTokenVerifier re-checks `has(kid)`).
 *
 * @example
 * const keys = new JwksKeys({ fetchJwks, minRefetchMs: 5_000, refreshMs: 300_000 });
 * const key = await keys.key(header.kid); // CryptoKey, or null when identity-svc does not publish it
 */
export class JwksKeys {
  readonly #options: JwksKeysOptions;
  #keys = new Map<string, CryptoKey>();
  /** When an unknown kid may trigger the next fetch: `minRefetchMs` after a success, soon after a failure. */
  #nextFetch = Number.NEGATIVE_INFINITY;
  #lastSuccess = Number.NEGATIVE_INFINITY;
  #refreshing: Promise<void> | undefined;

  constructor(options: JwksKeysOptions) {
    this.#options = options;
  }

  has(kid: string): boolean {
    if (Date.now() - this.#lastSuccess > this.#options.refreshMs) void this.refresh().catch(() => {});
    return this.#keys.has(kid);
  }

  async key(kid: string): Promise<CryptoKey | null> {
    const known = this.#keys.get(kid);
    if (known !== undefined) return known;
    // Without any key set yet (identity-svc was down at boot) every token needs a fetch; a failure
    // then surfaces as 503 rather than as a false "invalid token". Otherwise refetches are throttled.
    if (this.#lastSuccess === Number.NEGATIVE_INFINITY || Date.now() >= this.#nextFetch) await this.refresh();
    return this.#keys.get(kid) ?? null;
  }

  get kids(): string[] {
    return [...this.#keys.keys()];
  }

  /** Fetches the set now (shared by concurrent callers). Throws when identity-svc cannot be reached. */
  refresh(): Promise<void> {
    this.#refreshing ??= this.#load().finally(() => {
      this.#refreshing = undefined;
    });
    return this.#refreshing;
  }

  #load = async (): Promise<void> => {
    // A failed fetch (identity-svc still booting) must not lock verification out for the full interval.
    this.#nextFetch = Date.now() + Math.min(FAILED_FETCH_BACKOFF_MS, this.#options.minRefetchMs);
    const body = Jwks.parse(await this.#options.fetchJwks());
    const next = new Map<string, CryptoKey>();
    for (const candidate of body.keys) {
      const jwk = PublicJwk.safeParse(candidate);
      if (!jwk.success) continue; // other key types may appear later; they never verify our tokens
      next.set(jwk.data.kid, (await importJWK(jwk.data as JWK, "ES256")) as CryptoKey);
    }
    this.#keys = next;
    this.#lastSuccess = Date.now();
    this.#nextFetch = this.#lastSuccess + this.#options.minRefetchMs;
  };
}
