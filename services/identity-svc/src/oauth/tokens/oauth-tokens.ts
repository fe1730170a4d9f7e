import type { OAuthTokenResponse } from "@flowstate/contracts/rest/identity/oauth";
import type { EntityManager } from "@mikro-orm/postgresql";
import { SignJWT } from "jose";
import { now, type ServiceContext } from "../../context.ts";
import { randomSecret, sha256 } from "../../crypto/secret-token.ts";
import { OAuthRefreshToken } from "../db/entities.ts";

/** What an OAuth access token says: the grant's facts (oauth_grant), with the scopes of this token. */
export interface GrantClaims {
  sub: string;
  sid: string;
  clientId: string;
  resource: string;
  scope: string;
  tenantId?: string | null | undefined;
  authTime: Date;
}

/** An OAuth refresh token: `ort_` + 256 random bits (not `rt_`: REST's refresh endpoint never sees these). */
export function addOAuthRefreshToken(ctx: ServiceContext, em: EntityManager, sid: string): string {
  const token = `ort_${randomSecret()}`;
  em.create(OAuthRefreshToken, { token_hash: sha256(token), sid, created_at: now(ctx), spent_at: null });
  return token;
}

/**
 * Signs an access token for an MCP server (RFC 9068 profile, like REST tokens): ES256 with the
 * current signing key, `typ: at+jwt`, `iss` the issuer, `aud` the resource (RFC 8707), `sub`,
 * `sid` (the family, for revocation checks), `client_id`, `scope`, `auth_time`, and `tenant_id`
 * when the user chose one. Signed after the commit, like REST tokens.
 */
export async function oauthTokenResponse(
  ctx: ServiceContext,
  grant: GrantClaims,
  refreshToken: string,
): Promise<OAuthTokenResponse> {
  const { kid, key } = await ctx.deps.keyring.signingKey(now(ctx));
  const iat = Math.floor(now(ctx).getTime() / 1000);
  const ttl = ctx.deps.accessToken.ttlSeconds;
  const token = await new SignJWT({
    sid: grant.sid,
    client_id: grant.clientId,
    scope: grant.scope,
    auth_time: Math.floor(grant.authTime.getTime() / 1000),
    ...(grant.tenantId ? { tenant_id: grant.tenantId } : {}),
  })
    .setProtectedHeader({ alg: "ES256", kid, typ: "at+jwt" })
    .setSubject(grant.sub)
    .setIssuer(ctx.deps.oauth.issuer)
    .setAudience(grant.resource)
    .setIssuedAt(iat)
    .setExpirationTime(iat + ttl)
    .setJti(crypto.randomUUID())
    .sign(key);
  return {
    access_token: token,
    token_type: "Bearer",
    expires_in: ttl,
    refresh_token: refreshToken,
    scope: grant.scope,
  };
}
