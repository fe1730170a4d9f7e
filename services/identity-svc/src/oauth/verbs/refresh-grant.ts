import type { OAuthTokenResponse } from "@flowstate/contracts/rest/identity/oauth";
import { LockMode } from "@mikro-orm/postgresql";
import { inTransaction, now, type ServiceContext } from "../../context.ts";
import { sha256 } from "../../crypto/secret-token.ts";
import { User, UserSession } from "../../db/entities.ts";
import { revokeSession } from "../../verbs/revoke-session.ts";
import { OAuthGrant, OAuthRefreshToken } from "../db/entities.ts";
import { invalidGrant, OAuthProtocolError } from "../http/oauth-error.ts";
import { canonicalResource } from "../resource.ts";
import { addOAuthRefreshToken, oauthTokenResponse } from "../tokens/oauth-tokens.ts";

export interface RefreshInput {
  refresh_token: string;
  client_id: string;
  scope?: string | undefined;
  resource?: string | undefined;
}

/**
 * The refresh_token grant, rotating exactly as REST's refresh does (verbs/refresh-tokens.ts): the
 * token is spent and a new one issued; a spent one presented again revokes the whole family,
 * committed before the refusal (RFC 9700 section 4.14.2); two refreshes racing with one token
 * serialise on its row lock and the second counts as a replay. Every refusal is `invalid_grant`,
 * which tells MCP clients to authorize again. A narrower `scope` applies to this access token only
 * (RFC 6749 section 6); the grant keeps what the user consented to.
 */
export async function refreshGrant({
  ctx,
  input,
}: {
  ctx: ServiceContext;
  input: RefreshInput;
}): Promise<OAuthTokenResponse> {
  const tokenHash = sha256(input.refresh_token);
  const peek = await ctx.em.findOne(OAuthRefreshToken, { token_hash: tokenHash });
  const owner = peek ? await ctx.em.findOne(UserSession, { sid: peek.sid }) : null;
  if (!peek || !owner) throw invalidGrant("the refresh token is not valid");
  const outcome = await inTransaction(ctx, async (em) => {
    // User row first, then token and session: the lock order of sign-in, refresh and deletion.
    const user = await em.findOne(User, { sub: owner.sub }, { lockMode: LockMode.PESSIMISTIC_READ, refresh: true });
    const row = await em.findOne(
      OAuthRefreshToken,
      { token_hash: tokenHash },
      { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true },
    );
    const session = await em.findOne(
      UserSession,
      { sid: owner.sid },
      { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true },
    );
    const grant = await em.findOne(OAuthGrant, { sid: owner.sid }, { refresh: true });
    if (!row || !session || !grant) return { kind: "invalid" as const };
    if (grant.client_id !== input.client_id) return { kind: "invalid" as const };
    if (row.spent_at) {
      const revoked = revokeSession(ctx, em, session, "refresh_token_replayed");
      return { kind: "replayed" as const, revoked, sid: session.sid, sub: session.sub };
    }
    const at = now(ctx);
    if (session.revoked_at || session.expires_at <= at) return { kind: "invalid" as const };
    if (user?.status !== "active" || user.disabled) return { kind: "invalid" as const };
    if (input.resource !== undefined && canonicalResource(input.resource) !== grant.resource)
      return { kind: "target" as const };
    let scope = grant.scope;
    if (input.scope !== undefined) {
      const granted = new Set(grant.scope.split(" "));
      const asked = input.scope.split(" ").filter((s) => s !== "" && s !== "offline_access");
      if (asked.length === 0 || asked.some((s) => !granted.has(s))) return { kind: "scope" as const };
      scope = [...new Set(asked)].join(" ");
    }
    row.spent_at = at;
    grant.last_used_at = at;
    const claims = {
      sub: session.sub,
      sid: session.sid,
      clientId: grant.client_id,
      resource: grant.resource,
      scope,
      tenantId: grant.tenant_id,
      authTime: grant.auth_time,
    };
    return { kind: "ok" as const, claims, refreshToken: addOAuthRefreshToken(ctx, em, session.sid) };
  });
  switch (outcome.kind) {
    case "replayed":
      if (outcome.revoked) ctx.invalidations.push({ scope: "session", sid: outcome.sid, sub: outcome.sub });
      ctx.logger.warn({ sid: outcome.sid, sub: outcome.sub }, "OAuth refresh token replayed; family revoked");
      throw invalidGrant("the refresh token is not valid");
    case "invalid":
      throw invalidGrant("the refresh token is not valid");
    case "target":
      throw new OAuthProtocolError("invalid_target", "resource differs from the one the grant is for");
    case "scope":
      throw new OAuthProtocolError("invalid_scope", "scope must be a subset of the granted scopes");
    case "ok":
      return oauthTokenResponse(ctx, outcome.claims, outcome.refreshToken);
  }
}
