import { verifyAccessToken } from "@flowstate/shared/auth/access-token";
import type { JwksKeys } from "@flowstate/shared/auth/jwks-keys";
import { LruCache } from "@flowstate/shared/cache/lru";

export interface AccessClaims {
  sub: string;
  sid: string;
  /** Seconds since the epoch, as in the token. */
  iat: number;
  exp: number;
  kid: string;
}

export interface AccessTokenOptions {
  keys: JwksKeys;
  issuer: string;
  audience: string;
  /** Verified tokens kept; each entry is the token string (~400 bytes) and its claims. */
  cacheMax: number;
  /** identity-svc issues tokens for at most 15 minutes; a longer-lived one is refused outright. */
  maxLifetimeSec?: number;
}

/**
 * Verifies ES256 access tokens against identity-svc's JWKS and remembers verified tokens until they
 * expire. Verifying ES256 costs ~100 µs of CPU, which dominated a prototype's request cost (4% of
 * bare Hono's rate versus 10% with this cache); a cached token still re-checks expiry and that its
 * key is still published. Revocation is NOT decided here: see SessionCheck.
 *
 * @example
 * const claims = verifier.peek(token) ?? (await verifier.verify(token));
 */
export class AccessTokenVerifier {
  readonly #options: AccessTokenOptions;
  readonly #verified: LruCache<AccessClaims>;

  constructor(options: AccessTokenOptions) {
    this.#options = options;
    this.#verified = new LruCache(options.cacheMax);
  }

  /** The claims of a token verified before and still valid, else undefined. Throws TOKEN_EXPIRED. */
  peek(token: string, now = Date.now()): AccessClaims | undefined {
    const claims = this.#verified.get(token, now);
    if (claims === undefined) return undefined;
    if (!this.#options.keys.has(claims.kid)) {
      this.#verified.delete(token);
      return undefined;
    }
    return claims;
  }

  async verify(token: string): Promise<AccessClaims> {
    // The REST audience only: an MCP-audience token from the OAuth authorization server is refused here.
    const verified = await verifyAccessToken(token, this.#options);
    const claims: AccessClaims = {
      sub: verified.sub,
      sid: verified.sid,
      iat: verified.iat,
      exp: verified.exp,
      kid: verified.kid,
    };
    this.#verified.set(token, claims, verified.exp * 1000);
    return claims;
  }
}
