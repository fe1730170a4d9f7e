import { REAUTHENTICATION_MAX_AGE_SECONDS } from "@flowstate/contracts/rest/identity/users";
import { DomainError } from "@flowstate/shared/errors/domain-error";
import { now, type ServiceContext, table } from "../../context.ts";
import { verifyPassword } from "../../crypto/password.ts";
import { loadActiveUser } from "../get-profile.ts";
import { clearSignInFailures, reserveSignInAttempt } from "../sign-in-throttle.ts";
import { sessionEnded } from "./live-credential.ts";

const reauthenticationRequired = (signedInAt: Date) =>
  new DomainError(
    "unauthenticated",
    "REAUTHENTICATION_REQUIRED",
    `this needs a sign-in at most ${REAUTHENTICATION_MAX_AGE_SECONDS / 60} minutes old: sign in again and retry with ` +
      'the new access token (REST: POST /v1/auth/signin; MCP: authorize the client again), or send {"password": "…"} ' +
      "in the body of the request",
    { extensions: { max_age_seconds: REAUTHENTICATION_MAX_AGE_SECONDS, signed_in_at: signedInAt.toISOString() } },
  );

/**
 * Recent authentication for what cannot be undone (decisions.md, Consent: account deletion).
 * Either the password, checked like a sign-in (and counted by the same per-address backoff, so a
 * stolen token is no way around it), or a sign-in at most 15 minutes old. The sign-in time is the
 * token's `auth_time`, taken from where it comes from rather than from the caller: the sign-in
 * that opened the REST session (`user_session.created_at`, refreshes do not move it), or for an
 * OAuth token family the password sign-in of its authorization (`oauth_grant.auth_time`).
 *
 * @example
 * await requireRecentAuthentication(ctx, { sub, sid, password: body?.password });
 */
export async function requireRecentAuthentication(
  ctx: ServiceContext,
  who: { sub: string; sid: string; password?: string | undefined },
): Promise<void> {
  if (who.password !== undefined) {
    const user = await loadActiveUser(ctx.em, who.sub);
    // The address's count, never a device's: the holder of a stolen token must not guess faster.
    const gate = await reserveSignInAttempt(ctx, { email: user.email_key!, sub: null });
    if (!(await verifyPassword(who.password, user.password_hash!))) {
      throw new DomainError("unauthenticated", "INVALID_CREDENTIALS", "the password is wrong");
    }
    await clearSignInFailures(ctx, gate);
    return;
  }
  const rows = await ctx.em.execute<{ signed_in_at: Date }[]>(
    `SELECT COALESCE(g.auth_time, s.created_at) AS signed_in_at
       FROM ${table(ctx, "user_session")} s LEFT JOIN ${table(ctx, "oauth_grant")} g ON g.sid = s.sid
      WHERE s.sid = ? AND s.sub = ?`,
    [who.sid, who.sub],
  );
  if (!rows[0]) throw sessionEnded();
  const signedInAt = new Date(rows[0].signed_in_at);
  if (now(ctx).getTime() - signedInAt.getTime() > REAUTHENTICATION_MAX_AGE_SECONDS * 1000) {
    throw reauthenticationRequired(signedInAt);
  }
}
