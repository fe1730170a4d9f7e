import { createHash, timingSafeEqual } from "node:crypto";
import type { OAuthTokenResponse } from "@flowstate/contracts/rest/identity/oauth";
import { newId } from "@flowstate/shared/ids/new-id";
import { LockMode } from "@mikro-orm/postgresql";
import { inTransaction, now, type ServiceContext, table } from "../../context.ts";
import { sha256 } from "../../crypto/secret-token.ts";
import { User, UserSession } from "../../db/entities.ts";
import { revokeSession } from "../../verbs/revoke-session.ts";
import { clientRefOf } from "../clients/resolve-client.ts";
import { OAuthCode, OAuthGrant } from "../db/entities.ts";
import { invalidGrant, OAuthProtocolError } from "../http/oauth-error.ts";
import { canonicalResource } from "../resource.ts";
import { addOAuthRefreshToken, oauthTokenResponse } from "../tokens/oauth-tokens.ts";

export interface CodeExchange {
  code: string;
  redirect_uri: string;
  client_id: string;
  code_verifier: string;
  resource?: string | undefined;
}

const VERIFIER = /^[A-Za-z0-9._~-]{43,128}$/; // RFC 7636 section 4.1

/** RFC 7636 section 4.6: BASE64URL(SHA256(verifier)) equals the challenge, compared in constant time. */
function pkceMatches(verifier: string, challenge: string): boolean {
  if (!VERIFIER.test(verifier)) return false;
  const computed = Buffer.from(createHash("sha256").update(verifier).digest("base64url"));
  const expected = Buffer.from(challenge);
  return computed.length === expected.length && timingSafeEqual(computed, expected);
}

/**
 * The authorization_code grant. A code is single use: whatever the outcome, the first attempt
 * spends it (a failed PKCE check too, so a stolen code cannot be tried against many verifiers),
 * and a code presented again revokes the token family it issued (OAuth 2.1 section 4.1.3), with the
 * revocation committed before the refusal. Success opens a family: a `user_session` row (so account
 * revocation and the gateways' session check cover it), its `oauth_grant`, and the first refresh token.
 */
export async function exchangeCode({
  ctx,
  input,
}: {
  ctx: ServiceContext;
  input: CodeExchange;
}): Promise<OAuthTokenResponse> {
  const codeHash = sha256(input.code);
  // Whose code it is, without locks: the transaction locks the user row before the code, the
  // order sign-in, refresh and account deletion use, so none of them can deadlock with this.
  const peek = await ctx.em.findOne(OAuthCode, { code_hash: codeHash });
  if (!peek) throw invalidGrant("the authorization code is not valid");
  const outcome = await inTransaction(ctx, async (em) => {
    const user = await em.findOne(User, { sub: peek.sub }, { lockMode: LockMode.PESSIMISTIC_READ, refresh: true });
    const row = await em.findOne(
      OAuthCode,
      { code_hash: codeHash },
      { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true },
    );
    if (!row) return { kind: "refused" as const, error: invalidGrant("the authorization code is not valid") };
    const at = now(ctx);
    if (row.used_at) {
      const session = row.sid
        ? await em.findOne(UserSession, { sid: row.sid }, { lockMode: LockMode.PESSIMISTIC_WRITE })
        : null;
      const revoked = session ? revokeSession(ctx, em, session, "authorization_code_replayed") : false;
      return { kind: "replayed" as const, sid: row.sid, sub: row.sub, revoked };
    }
    row.used_at = at;
    const refuse = (error: OAuthProtocolError) => ({ kind: "refused" as const, error });
    if (row.expires_at <= at) return refuse(invalidGrant("the authorization code has expired"));
    if (row.client_id !== input.client_id) return refuse(invalidGrant("the code was issued to another client"));
    if (row.redirect_uri !== input.redirect_uri)
      return refuse(invalidGrant("redirect_uri differs from the authorization request"));
    if (!pkceMatches(input.code_verifier, row.code_challenge))
      return refuse(invalidGrant("code_verifier does not match the code_challenge"));
    if (input.resource !== undefined && canonicalResource(input.resource) !== row.resource)
      return refuse(new OAuthProtocolError("invalid_target", "resource differs from the authorization request"));
    if (user?.status !== "active" || user.disabled) return refuse(invalidGrant("the account is not active"));

    const sid = newId("ses");
    row.sid = sid;
    em.create(UserSession, {
      sid,
      sub: row.sub,
      created_at: at,
      expires_at: new Date(at.getTime() + ctx.deps.sessionTtlMs),
      revoked_at: null,
      revoked_reason: null,
    });
    em.create(OAuthGrant, {
      sid,
      sub: row.sub,
      client_id: row.client_id,
      client_ref: clientRefOf(row.client_id),
      client_name: row.client_name,
      resource: row.resource,
      scope: row.scope,
      tenant_id: row.tenant_id,
      auth_time: row.auth_time,
      created_at: at,
      last_used_at: at,
    });
    // The client has been used for a token: housekeeping keeps it (forget-unused-clients.ts).
    await em.execute(
      `UPDATE ${table(ctx, "oauth_client")} SET first_token_at = ? WHERE client_id = ? AND first_token_at IS NULL`,
      [at, row.client_id],
    );
    const refreshToken = addOAuthRefreshToken(ctx, em, sid);
    const grant = {
      sub: row.sub,
      sid,
      clientId: row.client_id,
      resource: row.resource,
      scope: row.scope,
      tenantId: row.tenant_id,
      authTime: row.auth_time,
    };
    return { kind: "ok" as const, grant, refreshToken };
  });
  if (outcome.kind === "replayed") {
    if (outcome.revoked && outcome.sid)
      ctx.invalidations.push({ scope: "session", sid: outcome.sid, sub: outcome.sub });
    ctx.logger.warn({ sid: outcome.sid, sub: outcome.sub }, "authorization code replayed; its token family revoked");
    throw invalidGrant("the authorization code was already used");
  }
  if (outcome.kind === "refused") throw outcome.error;
  return oauthTokenResponse(ctx, outcome.grant, outcome.refreshToken);
}
