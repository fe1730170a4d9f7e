import type { RefreshRequest, TokenResponse } from "@flowstate/contracts/rest/identity/auth";
import { DomainError } from "@flowstate/shared/errors/domain-error";
import type { ServiceContext } from "../context.ts";
import { RefreshToken } from "../db/entities.ts";
import { addRefreshToken, tokenResponse } from "./lib/issue-tokens.ts";
import { rotateRefreshToken } from "./lib/rotate-refresh-token.ts";

const invalidRefresh = () =>
  new DomainError("unauthenticated", "INVALID_REFRESH_TOKEN", "the refresh token is not valid; sign in again");

/**
 * Trades a refresh token for a new pair (rotation, verbs/lib/rotate-refresh-token.ts). A replayed
 * token revokes the whole session before the 401 goes out.
 */
export async function refreshTokens({
  ctx,
  input,
}: {
  ctx: ServiceContext;
  input: RefreshRequest;
}): Promise<TokenResponse> {
  const outcome = await rotateRefreshToken(ctx, {
    entity: RefreshToken,
    token: input.refresh_token,
    load: async () => true, // nothing besides the session
    issue: (em, session) => ({
      claims: {
        sub: session.sub,
        sid: session.sid,
        authTime: session.created_at, // the sign-in that opened the session: a refresh is no re-authentication
      },
      refreshToken: addRefreshToken(ctx, em, session.sid),
    }),
    replayWarning: "refresh token replayed; session revoked",
  });
  if (outcome === "invalid") throw invalidRefresh();
  return tokenResponse(ctx, outcome.claims, outcome.refreshToken);
}
