import { SignJWT } from "jose";
import type { Keyring } from "./keyring.ts";

export interface AccessTokenConfig {
  issuer: string;
  audience: string;
  /** At most 900 seconds (15 minutes), enforced by the config schema. */
  ttlSeconds: number;
}

/**
 * Signs an access token (RFC 9068 profile: `typ: at+jwt`, so it cannot be confused with another
 * JWT kind): ES256, `kid` in the header, claims sub, sid, iat, exp, iss, aud, jti, and `auth_time`
 * (OpenID Connect Core §2: when the person last entered their password, the session's sign-in,
 * unchanged by refreshes; account deletion asks for one at most 15 minutes old). No e-mail or
 * name in the token: it travels in headers and logs of every hop.
 */
export async function signAccessToken(
  keyring: Keyring,
  config: AccessTokenConfig,
  claims: { sub: string; sid: string; authTime: Date },
  now: Date,
): Promise<{ token: string; expiresIn: number }> {
  const { kid, key } = await keyring.signingKey(now);
  const iat = Math.floor(now.getTime() / 1000);
  const token = await new SignJWT({ sid: claims.sid, auth_time: Math.floor(claims.authTime.getTime() / 1000) })
    .setProtectedHeader({ alg: "ES256", kid, typ: "at+jwt" })
    .setSubject(claims.sub)
    .setIssuer(config.issuer)
    .setAudience(config.audience)
    .setIssuedAt(iat)
    .setExpirationTime(iat + config.ttlSeconds)
    .setJti(crypto.randomUUID())
    .sign(key);
  return { token, expiresIn: config.ttlSeconds };
}
