import type { RefreshRequest, TokenResponse } from "@flowstate/contracts/rest/identity/auth";
import { DomainError } from "@flowstate/shared/errors/domain-error";
import { LockMode } from "@mikro-orm/postgresql";
import { inTransaction, now, type ServiceContext } from "../context.ts";
import { sha256 } from "../crypto/secret-token.ts";
import { RefreshToken, User, UserSession } from "../db/entities.ts";
import { addRefreshToken, tokenResponse } from "./lib/issue-tokens.ts";
import { revokeSession } from "./revoke-session.ts";

const invalidRefresh = () =>
  new DomainError("unauthenticated", "INVALID_REFRESH_TOKEN", "the refresh token is not valid; sign in again");

/**
 * Trades a refresh token for a new pair (rotation). A token that was already spent is a replay:
 * someone else holds a copy, so the whole session (the family) is revoked and committed before the
 * 401 goes out (RFC 9700 section 4.14.2). Two refreshes racing with one token serialise on its row
 * lock; the second one is a replay.
 */
export async function refreshTokens({
  ctx,
  input,
}: {
  ctx: ServiceContext;
  input: RefreshRequest;
}): Promise<TokenResponse> {
  const tokenHash = sha256(input.refresh_token);
  // Find whose token it is without locks first: the transaction must lock the user row BEFORE the
  // session row, the order disableAccount and deleteAccount use, or the two would deadlock.
  const peek = await ctx.em.findOne(RefreshToken, { token_hash: tokenHash });
  const owner = peek ? await ctx.em.findOne(UserSession, { sid: peek.sid }) : null;
  if (!peek || !owner) throw invalidRefresh();
  const outcome = await inTransaction(ctx, async (em) => {
    const user = await em.findOne(User, { sub: owner.sub }, { lockMode: LockMode.PESSIMISTIC_READ, refresh: true });
    const row = await em.findOne(
      RefreshToken,
      { token_hash: tokenHash },
      { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true },
    );
    const session = await em.findOne(
      UserSession,
      { sid: owner.sid },
      { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true },
    );
    if (!row || !session) return { kind: "invalid" as const };
    if (row.spent_at) {
      const revoked = revokeSession(ctx, em, session, "refresh_token_replayed");
      return { kind: "replayed" as const, revoked, sid: session.sid, sub: session.sub };
    }
    const at = now(ctx);
    if (session.revoked_at || session.expires_at <= at) return { kind: "invalid" as const };
    if (user?.status !== "active" || user.disabled) return { kind: "invalid" as const };
    row.spent_at = at;
    return {
      kind: "ok" as const,
      sub: session.sub,
      sid: session.sid,
      authTime: session.created_at, // the sign-in that opened the session: a refresh is no re-authentication
      refreshToken: addRefreshToken(ctx, em, session.sid),
    };
  });
  if (outcome.kind === "replayed") {
    if (outcome.revoked) ctx.invalidations.push({ scope: "session", sid: outcome.sid, sub: outcome.sub });
    ctx.logger.warn({ sid: outcome.sid, sub: outcome.sub }, "refresh token replayed; session revoked");
    throw invalidRefresh();
  }
  if (outcome.kind === "invalid") throw invalidRefresh();
  return tokenResponse(ctx, { sub: outcome.sub, sid: outcome.sid, authTime: outcome.authTime }, outcome.refreshToken);
}
