import type { OAuthTokenResponse } from "@flowstate/contracts/rest/identity/oauth";
import type { ServiceContext } from "../../context.ts";
import { rotateRefreshToken } from "../../verbs/lib/rotate-refresh-token.ts";
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
 * The refresh_token grant, rotating exactly as REST's refresh does (verbs/lib/rotate-refresh-token.ts):
 * the token is spent and a new one issued; a spent one presented again revokes the whole family,
 * committed before the refusal. Every refusal is `invalid_grant`, which tells MCP clients to
 * authorize again. A token presented by another client than its grant's is refused without counting
 * as a replay. A narrower `scope` applies to this access token only (RFC 6749 section 6); the grant
 * keeps what the user consented to.
 */
export async function refreshGrant({
  ctx,
  input,
}: {
  ctx: ServiceContext;
  input: RefreshInput;
}): Promise<OAuthTokenResponse> {
  const outcome = await rotateRefreshToken(ctx, {
    entity: OAuthRefreshToken,
    token: input.refresh_token,
    load: async (em, session) => {
      const grant = await em.findOne(OAuthGrant, { sid: session.sid }, { refresh: true });
      return grant && grant.client_id === input.client_id ? grant : null;
    },
    issue: (em, session, grant, at) => {
      if (input.resource !== undefined && canonicalResource(input.resource) !== grant.resource)
        return "target" as const;
      let scope = grant.scope;
      if (input.scope !== undefined) {
        const granted = new Set(grant.scope.split(" "));
        const asked = input.scope.split(" ").filter((s) => s !== "" && s !== "offline_access");
        if (asked.length === 0 || asked.some((s) => !granted.has(s))) return "scope" as const;
        scope = [...new Set(asked)].join(" ");
      }
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
      return { claims, refreshToken: addOAuthRefreshToken(ctx, em, session.sid) };
    },
    replayWarning: "OAuth refresh token replayed; family revoked",
  });
  switch (outcome) {
    case "invalid":
      throw invalidGrant("the refresh token is not valid");
    case "target":
      throw new OAuthProtocolError("invalid_target", "resource differs from the one the grant is for");
    case "scope":
      throw new OAuthProtocolError("invalid_scope", "scope must be a subset of the granted scopes");
    default:
      return oauthTokenResponse(ctx, outcome.claims, outcome.refreshToken);
  }
}
