import { type EntityManager, LockMode } from "@mikro-orm/postgresql";
import { inTransaction, now, type ServiceContext } from "../../context.ts";
import { sha256 } from "../../crypto/secret-token.ts";
import { type RefreshToken, User, UserSession } from "../../db/entities.ts";
import type { OAuthRefreshToken } from "../../oauth/db/entities.ts";
import { revokeSession } from "../revoke-session.ts";

/** The two refresh-token families: REST sessions' and OAuth grants'. Both tables have the same columns. */
type RefreshTokenEntity = typeof RefreshToken | typeof OAuthRefreshToken;

export interface RefreshRotation<Loaded, Issued> {
  entity: RefreshTokenEntity;
  token: string;
  /**
   * Inside the transaction, with user, token and session locked, before the replay check: what the
   * family needs besides the session (OAuth: the grant, and the client presenting the token).
   * `null` refuses the token as not valid without treating it as a replay.
   */
  load: (em: EntityManager, session: UserSession) => Promise<Loaded | null>;
  /**
   * Once the token is unspent, the session live and the user active: the family's own checks and
   * the new tokens. A string is a refusal of the family's own (OAuth: a resource or scope the grant
   * does not cover): the token stays unspent and the string is the answer.
   */
  issue: (em: EntityManager, session: UserSession, loaded: Loaded, at: Date) => Issued;
  /** The warning logged when a spent token comes back. */
  replayWarning: string;
}

/**
 * Refresh-token rotation, one rule for REST's refresh and OAuth's refresh_token grant: the token is
 * spent and a new one issued; a spent one presented again is a replay (someone else holds a copy),
 * so the whole session (the family) is revoked and committed before the refusal (RFC 9700 section
 * 4.14.2). Two refreshes racing with one token serialise on its row lock; the second is a replay.
 * Answers `"invalid"` for every refusal of the token itself (the caller turns it into its own error),
 * else what `issue` returned.
 */
export async function rotateRefreshToken<Loaded, Issued>(
  ctx: ServiceContext,
  { entity, token, load, issue, replayWarning }: RefreshRotation<Loaded, Issued>,
): Promise<Issued | "invalid"> {
  const tokenHash = sha256(token);
  // Find whose token it is without locks first: the transaction must lock the user row BEFORE the
  // session row, the order sign-in, disableAccount and deleteAccount use, or they would deadlock.
  const peek = await ctx.em.findOne(entity, { token_hash: tokenHash });
  const owner = peek ? await ctx.em.findOne(UserSession, { sid: peek.sid }) : null;
  if (!peek || !owner) return "invalid";
  const outcome = await inTransaction(ctx, async (em) => {
    const user = await em.findOne(User, { sub: owner.sub }, { lockMode: LockMode.PESSIMISTIC_READ, refresh: true });
    const row = await em.findOne(
      entity,
      { token_hash: tokenHash },
      { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true },
    );
    const session = await em.findOne(
      UserSession,
      { sid: owner.sid },
      { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true },
    );
    if (!row || !session) return { kind: "invalid" as const };
    const loaded = await load(em, session);
    if (loaded === null) return { kind: "invalid" as const };
    if (row.spent_at) {
      const revoked = revokeSession(ctx, em, session, "refresh_token_replayed");
      return { kind: "replayed" as const, revoked, sid: session.sid, sub: session.sub };
    }
    const at = now(ctx);
    if (session.revoked_at || session.expires_at <= at) return { kind: "invalid" as const };
    if (user?.status !== "active" || user.disabled) return { kind: "invalid" as const };
    const issued = issue(em, session, loaded, at);
    if (typeof issued !== "string") row.spent_at = at;
    return { kind: "ok" as const, issued };
  });
  if (outcome.kind === "replayed") {
    if (outcome.revoked) ctx.invalidations.push({ scope: "session", sid: outcome.sid, sub: outcome.sub });
    ctx.logger.warn({ sid: outcome.sid, sub: outcome.sub }, replayWarning);
    return "invalid";
  }
  return outcome.kind === "ok" ? outcome.issued : "invalid";
}
