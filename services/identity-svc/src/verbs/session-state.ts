import type { SessionState } from "@flowstate/contracts/internal/identity";
import { notFound } from "@flowstate/shared/errors/domain-error";
import { type ServiceContext, table } from "../context.ts";

type Row = {
  sid: string;
  sub: string;
  revoked_at: Date | null;
  status: string;
  disabled: boolean;
  tokens_valid_after: Date;
};

/**
 * The revocation facts the gateway checks for every token: is the session live, is its account
 * active, and (given the token's `iat`) was the token issued after the account's
 * `tokens_valid_after`. One indexed join; the gateway caches the answer until identity-svc tells it
 * otherwise (flowstate-invalidate header, AccessRevoked event).
 */
export async function sessionState({
  ctx,
  sid,
  iat,
}: {
  ctx: ServiceContext;
  sid: string;
  iat?: number | undefined;
}): Promise<SessionState> {
  const rows = await ctx.em.execute<Row[]>(
    `SELECT s.sid, s.sub, s.revoked_at, u.status, u.disabled, u.tokens_valid_after
       FROM ${table(ctx, "user_session")} s JOIN ${table(ctx, "app_user")} u ON u.sub = s.sub
      WHERE s.sid = ?`,
    [sid],
  );
  const row = rows[0];
  if (!row) throw notFound("session");
  const validAfter = new Date(row.tokens_valid_after);
  const accountLive = row.status === "active" && !row.disabled;
  // iat has one-second resolution: a token from the very second of a revocation counts as before it.
  const tokenFresh = iat === undefined || iat * 1000 > validAfter.getTime();
  return {
    sid: row.sid,
    sub: row.sub,
    active: accountLive && row.revoked_at === null && tokenFresh,
    tokens_valid_after: validAfter.toISOString(),
  };
}
