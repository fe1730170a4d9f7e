import { LockMode } from "@mikro-orm/postgresql";
import { createLocalJWKSet, type JWK, jwtVerify } from "jose";
import { inTransaction, now, type ServiceContext } from "../../context.ts";
import { sha256 } from "../../crypto/secret-token.ts";
import { UserSession } from "../../db/entities.ts";
import { revokeSession } from "../../verbs/revoke-session.ts";
import { OAuthGrant, OAuthRefreshToken } from "../db/entities.ts";

/** The family (sid) a presented token belongs to, when it is one of ours issued to this client. */
async function familyOf(ctx: ServiceContext, token: string, clientId: string): Promise<string | null> {
  if (token.startsWith("ort_")) {
    const row = await ctx.em.findOne(OAuthRefreshToken, { token_hash: sha256(token) });
    return row?.sid ?? null;
  }
  if (token.split(".").length !== 3) return null;
  try {
    const { payload } = await jwtVerify(token, createLocalJWKSet(ctx.deps.keyring.jwks(now(ctx)) as { keys: JWK[] }), {
      algorithms: ["ES256"],
      typ: "at+jwt",
      issuer: ctx.deps.oauth.issuer,
      audience: ctx.deps.oauth.resources,
      currentDate: now(ctx),
    });
    return payload.client_id === clientId && typeof payload.sid === "string" ? payload.sid : null;
  } catch {
    return null; // not ours, forged, or expired (an expired token no longer gets anyone in)
  }
}

/**
 * RFC 7009: revoking a refresh token or an access token ends its whole family (grant). The answer
 * is 200 whether or not the token was valid, known, or the client's (section 2.2), so the
 * endpoint tells nothing about tokens; a token of another client is left alone.
 */
export async function revokeToken({
  ctx,
  input,
}: {
  ctx: ServiceContext;
  input: { token: string; client_id: string };
}): Promise<void> {
  const sid = await familyOf(ctx, input.token, input.client_id);
  if (sid === null) return;
  const revoked = await inTransaction(ctx, async (em) => {
    const grant = await em.findOne(OAuthGrant, { sid });
    if (grant?.client_id !== input.client_id) return null;
    const session = await em.findOne(UserSession, { sid }, { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true });
    return session && revokeSession(ctx, em, session, "token_revoked") ? session : null;
  });
  if (revoked) ctx.invalidations.push({ scope: "session", sid: revoked.sid, sub: revoked.sub });
}
