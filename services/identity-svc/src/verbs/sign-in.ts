import type { SignInRequest, SignInResponse } from "@flowstate/contracts/rest/identity/auth";
import { DomainError } from "@flowstate/shared/errors/domain-error";
import { newId } from "@flowstate/shared/ids/new-id";
import { LockMode } from "@mikro-orm/postgresql";
import { inTransaction, now, type ServiceContext } from "../context.ts";
import { hashPassword, needsRehash, verifyPassword } from "../crypto/password.ts";
import { User, UserSession } from "../db/entities.ts";
import { addRefreshToken, tokenResponse } from "./lib/issue-tokens.ts";
import { issueDeviceToken } from "./sign-in-device.ts";
import { clearSignInFailures, reserveSignInAttempt } from "./sign-in-throttle.ts";
import { emailKey } from "./sign-up.ts";

/** One answer for an unknown e-mail and a wrong password, so neither is revealed. */
export const invalidCredentials = () =>
  new DomainError("unauthenticated", "INVALID_CREDENTIALS", "the e-mail address or the password is wrong");

/**
 * Signs in with e-mail and password and opens a session (one refresh-token family). An unknown
 * e-mail is checked against a dummy hash so it costs the same time as a wrong password. Attempts
 * are counted first, per device token when the client presents a live one of this account, per
 * address otherwise, and refused while that count backs off (sign-in-throttle.ts). The answer
 * carries a fresh device token for the next sign-in.
 */
export async function signIn({ ctx, input }: { ctx: ServiceContext; input: SignInRequest }): Promise<SignInResponse> {
  const key = emailKey(input.email);
  const candidate = await ctx.em.findOne(User, { email_key: key, status: "active" });
  // 429 while this client's count is backing off; counts this attempt.
  const gate = await reserveSignInAttempt(ctx, {
    email: input.email,
    sub: candidate?.sub ?? null,
    deviceToken: input.device_token,
  });
  const ok = await verifyPassword(input.password, candidate?.password_hash ?? ctx.deps.password.dummyHash);
  if (!candidate || !ok) throw invalidCredentials();
  await clearSignInFailures(ctx, gate);
  // Only someone who knows the password learns that the account is disabled.
  if (candidate.disabled) throw new DomainError("forbidden", "ACCOUNT_DISABLED", "this account is disabled");
  const rehash = needsRehash(candidate.password_hash!, ctx.deps.password.params)
    ? await hashPassword(input.password, ctx.deps.password.params)
    : null;

  const sid = newId("ses");
  const at = now(ctx);
  const { refreshToken, deviceToken } = await inTransaction(ctx, async (em) => {
    // FOR SHARE: a concurrent disable/delete (FOR UPDATE) either sees this session and revokes it,
    // or runs first and this sign-in sees the account disabled. FOR UPDATE when the hash is
    // rewritten: two such sign-ins each holding a share lock and then updating the row deadlock
    // (one gets PostgreSQL's 40P01, a 500); taken exclusively, the second waits for the first.
    const lockMode = rehash ? LockMode.PESSIMISTIC_WRITE : LockMode.PESSIMISTIC_READ;
    const user = await em.findOne(User, { sub: candidate.sub }, { lockMode, refresh: true });
    if (user?.status !== "active" || user.disabled) throw invalidCredentials();
    if (rehash) user.password_hash = rehash;
    em.create(UserSession, {
      sid,
      sub: user.sub,
      created_at: at,
      expires_at: new Date(at.getTime() + ctx.deps.sessionTtlMs),
      revoked_at: null,
      revoked_reason: null,
    });
    return {
      refreshToken: addRefreshToken(ctx, em, sid),
      deviceToken: await issueDeviceToken(ctx, em, user.sub, gate.kind === "device" ? gate.tokenHash : null),
    };
  });
  const tokens = await tokenResponse(ctx, { sub: candidate.sub, sid, authTime: at }, refreshToken);
  return { ...tokens, device_token: deviceToken };
}
