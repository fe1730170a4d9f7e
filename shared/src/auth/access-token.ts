import { SessionId, Sub, TenantId } from "@flowstate/contracts/ids";
import { type CryptoKey, decodeProtectedHeader, errors, jwtVerify } from "jose";
import { DomainError } from "../errors/domain-error.ts";

/** Where verification finds a public key by `kid` (JwksKeys, or a fixed map in tests); null when unknown. */
export interface KeySource {
  key(kid: string): Promise<CryptoKey | null>;
}

/**
 * The claims of a verified identity-svc access token. REST tokens (POST /v1/auth/signin) carry
 * `aud` = the REST audience and no `client_id`; tokens from the OAuth authorization server (MCP
 * clients) carry `aud` = the MCP server's canonical URI, `client_id`, `scope` and `auth_time`, and
 * `tenant_id` when the user chose a tenant at consent. `sid` is the session (refresh-token family)
 * whose revocation the caller must still check (GET /internal/v1/sessions/{sid}?iat=…).
 */
export interface AccessTokenClaims {
  sub: string;
  sid: string;
  aud: string;
  /** Seconds since the epoch, as in the token. */
  iat: number;
  exp: number;
  kid: string;
  /** OAuth scopes (`scope` claim split on spaces); empty for REST tokens. */
  scopes: string[];
  clientId?: string | undefined;
  tenantId?: string | undefined;
  /** When the user last entered their password for this grant (seconds since the epoch). */
  authTime?: number | undefined;
}

export interface VerifyAccessTokenOptions {
  keys: KeySource;
  issuer: string;
  /** The one audience this verifier serves: the REST audience, or the MCP server's canonical URI. */
  audience: string;
  /** identity-svc issues tokens for at most 15 minutes; a longer-lived one is refused outright. */
  maxLifetimeSec?: number;
  /** The verifier's clock in ms (tests move it); defaults to Date.now. */
  now?: () => number;
}

const CLOCK_TOLERANCE_SEC = 5;
const SCOPE = /^[\x21\x23-\x5B\x5D-\x7E]+(?: [\x21\x23-\x5B\x5D-\x7E]+)*$/; // RFC 6749 section 3.3
const invalid = () => new DomainError("unauthenticated", "INVALID_TOKEN", "the access token is not valid");
const expired = () => new DomainError("unauthenticated", "TOKEN_EXPIRED", "the access token has expired; refresh it");

/**
 * Verifies an identity-svc access token for one audience: ES256 only, `typ: at+jwt` (RFC 9068, so
 * no other JWT from the same keys passes), `kid` known to `keys`, `iss` equal, `aud` a single string
 * exactly equal to `audience` (a REST token is refused by the MCP server and an MCP token by the REST
 * gateway: RFC 8707 audience binding), `exp` not passed (the tolerance is for `iat` skew only),
 * lifetime at most `maxLifetimeSec`, `sub`/`sid`/`tenant_id` of our id shapes. Throws DomainError
 * INVALID_TOKEN or TOKEN_EXPIRED (401); revocation is NOT decided here.
 *
 * @example
 * const keys = new JwksKeys({ fetchJwks: () => fetch(`${identityUrl}/.well-known/jwks.json`).then((r) => r.json()), minRefetchMs: 5_000, refreshMs: 300_000 });
 * const claims = await verifyAccessToken(token, { keys, issuer, audience: "https://mcp.flowstate.example/mcp" });
 * if (!claims.scopes.includes("marketplace:read")) // 403 insufficient_scope
 */
export async function verifyAccessToken(token: string, options: VerifyAccessTokenOptions): Promise<AccessTokenClaims> {
  const now = options.now ?? Date.now;
  let kid: string;
  try {
    const header = decodeProtectedHeader(token);
    if (header.alg !== "ES256" || typeof header.kid !== "string") throw invalid();
    kid = header.kid;
  } catch {
    throw invalid();
  }
  const key = await options.keys.key(kid);
  if (key === null) throw invalid();
  let payload: Record<string, unknown>;
  try {
    ({ payload } = await jwtVerify(token, key, {
      algorithms: ["ES256"],
      typ: "at+jwt",
      issuer: options.issuer,
      audience: options.audience,
      requiredClaims: ["sub", "sid", "iat", "exp"],
      clockTolerance: CLOCK_TOLERANCE_SEC,
      currentDate: new Date(now()),
    }));
  } catch (err) {
    throw err instanceof errors.JWTExpired ? expired() : invalid();
  }
  const { sub, sid, iat, exp, aud, scope, client_id, tenant_id, auth_time } = payload;
  if (typeof iat !== "number" || typeof exp !== "number") throw invalid();
  if (exp * 1000 <= now()) throw expired();
  if (exp - iat > (options.maxLifetimeSec ?? 900) || iat > now() / 1000 + CLOCK_TOLERANCE_SEC) throw invalid();
  // One audience per token: an array naming several resources would let one token pass at both doors.
  if (aud !== options.audience) throw invalid();
  if (!Sub.safeParse(sub).success || !SessionId.safeParse(sid).success) throw invalid();
  if (scope !== undefined && (typeof scope !== "string" || !SCOPE.test(scope))) throw invalid();
  if (client_id !== undefined && (typeof client_id !== "string" || client_id.length > 2000)) throw invalid();
  if (tenant_id !== undefined && !TenantId.safeParse(tenant_id).success) throw invalid();
  if (auth_time !== undefined && typeof auth_time !== "number") throw invalid();
  return {
    sub: sub as string,
    sid: sid as string,
    aud,
    iat,
    exp,
    kid,
    scopes: typeof scope === "string" ? scope.split(" ") : [],
    clientId: client_id as string | undefined,
    tenantId: tenant_id as string | undefined,
    authTime: auth_time as number | undefined,
  };
}
