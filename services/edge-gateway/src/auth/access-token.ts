import { SessionId, Sub } from "@flowstate/contracts/ids";
import { DomainError } from "@flowstate/shared/errors/domain-error";
import { decodeProtectedHeader, errors, jwtVerify } from "jose";
import { LruCache } from "../cache/lru.ts";
import type { JwksKeys } from "./jwks-keys.ts";

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

const CLOCK_TOLERANCE_SEC = 5;
const invalid = () => new DomainError("unauthenticated", "INVALID_TOKEN", "the access token is not valid");
const expired = () => new DomainError("unauthenticated", "TOKEN_EXPIRED", "the access token has expired; refresh it");

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
    let kid: string | undefined;
    try {
      const header = decodeProtectedHeader(token);
      if (header.alg !== "ES256" || typeof header.kid !== "string") throw invalid();
      kid = header.kid;
    } catch {
      throw invalid();
    }
    const key = await this.#options.keys.key(kid);
    if (key === null) throw invalid();
    let payload: Record<string, unknown>;
    try {
      ({ payload } = await jwtVerify(token, key, {
        algorithms: ["ES256"],
        typ: "at+jwt", // RFC 9068: an ID token or any other JWT from the same keys is not an access token
        issuer: this.#options.issuer,
        audience: this.#options.audience,
        requiredClaims: ["sub", "sid", "iat", "exp"],
        clockTolerance: CLOCK_TOLERANCE_SEC,
      }));
    } catch (err) {
      throw err instanceof errors.JWTExpired ? expired() : invalid();
    }
    const { sub, sid, iat, exp } = payload;
    if (typeof iat !== "number" || typeof exp !== "number") throw invalid();
    if (exp * 1000 <= Date.now()) throw expired(); // the tolerance is for iat skew, not for a late exp
    if (exp - iat > (this.#options.maxLifetimeSec ?? 900) || iat > Date.now() / 1000 + CLOCK_TOLERANCE_SEC)
      throw invalid();
    if (!Sub.safeParse(sub).success || !SessionId.safeParse(sid).success) throw invalid();
    const claims: AccessClaims = { sub: sub as string, sid: sid as string, iat, exp, kid };
    this.#verified.set(token, claims, exp * 1000);
    return claims;
  }
}
