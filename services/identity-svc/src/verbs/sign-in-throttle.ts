import { createHmac } from "node:crypto";
import type { EntityManager } from "@mikro-orm/postgresql";
import { now, type ServiceContext, table } from "../context.ts";
import { countAttempt, signInThrottled, type ThrottleRow } from "./lib/sign-in-backoff.ts";
import { reserveDeviceAttempt } from "./sign-in-device.ts";
import { emailKey } from "./sign-up.ts";

/**
 * The throttle row's key of an address: HMAC-SHA256 of the normalised address, so the table (rows
 * live a day) holds no e-mail addresses, and a plain hash of a guessed address does not find one.
 * The key is derived at boot from a secret only identity-svc holds (deps-factory.ts); a new
 * secret only restarts the counts.
 */
export const throttleKey = (ctx: ServiceContext, email: string): string =>
  createHmac("sha256", ctx.deps.signInThrottleKey).update(emailKey(email)).digest("base64url");

/** Which count an attempt was made against: a device token of the account, or the account's address. */
export type SignInGate = { kind: "device"; tokenHash: string } | { kind: "address"; key: string };

/**
 * Brute-force protection for password sign-in (issue 7 of the first review; issue 20 finding 7),
 * OWASP's "device cookies". Each attempt is counted BEFORE the password is checked (so a burst of
 * parallel guesses is counted as it arrives, not after the Argon2 work):
 * - with a valid device token of this account (`sub`, the account the address names), against that
 *   token only (sign-in-device.ts): the owner's client is not held by anyone else's failures, and a
 *   token that keeps failing is held on its own;
 * - otherwise against the address, whether or not it has an account (so the answers are the same):
 *   after `freeFailures` the address is blocked for `baseMs`, doubling up to `maxMs`. Guessing from
 *   clients without a token is exactly as slow as before device tokens existed.
 * While blocked, every attempt (a right password too) is refused with 429 SIGN_IN_THROTTLED and
 * `Retry-After`, at no hashing cost.
 *
 * @example
 * const gate = await reserveSignInAttempt(ctx, { email, sub: candidate?.sub ?? null, deviceToken });
 */
export async function reserveSignInAttempt(
  ctx: ServiceContext,
  who: { email: string; sub: string | null; deviceToken?: string | undefined },
): Promise<SignInGate> {
  if (who.deviceToken !== undefined) {
    // Looked up whether or not the address has an account (sub null matches no row), so a
    // presented token costs the same query either way and the timing tells nothing.
    const device = await reserveDeviceAttempt(ctx, who.sub, who.deviceToken);
    if (device !== null) return device;
  }
  const key = throttleKey(ctx, who.email);
  const at = now(ctx);
  const throttle = table(ctx, "sign_in_throttle");
  const blockedFor = await ctx.em.transactional(async (em) => {
    // The address's row, new or existing, locked in one statement: concurrent attempts for one
    // address are counted one after the other. DO UPDATE (a no-op) locks the row it returns; a
    // separate insert and SELECT … FOR UPDATE found no row when a successful sign-in or the
    // housekeeping deleted it in between (a 500, auth-signin-throttle-race.test.ts), whereas an
    // upsert that meets a row deleted under it inserts afresh.
    const [row] = await em.execute<ThrottleRow[]>(
      `INSERT INTO ${throttle} AS t (email_key, failures, blocked_until, last_attempt_at) VALUES (?, 0, NULL, ?)
       ON CONFLICT (email_key) DO UPDATE SET email_key = t.email_key
       RETURNING t.failures, t.blocked_until, t.last_attempt_at`,
      [key, at],
    );
    const { blockedForMs, next } = countAttempt(row!, ctx.deps.signInThrottle, at);
    if (blockedForMs > 0) return blockedForMs;
    await em.execute(
      `UPDATE ${throttle} SET failures = ?, blocked_until = ?, last_attempt_at = ? WHERE email_key = ?`,
      [next.failures, next.blocked_until, at, key],
    );
    return 0;
  });
  if (blockedFor > 0) throw signInThrottled(Math.ceil(blockedFor / 1000));
  return { kind: "address", key };
}

/**
 * The right password: the count it was made against starts afresh. A success on a device token
 * leaves the address's count alone, so the owner signing in does not hand a guesser new free tries.
 */
export async function clearSignInFailures(ctx: ServiceContext, gate: SignInGate, em: EntityManager = ctx.em) {
  if (gate.kind === "address") {
    await em.execute(`DELETE FROM ${table(ctx, "sign_in_throttle")} WHERE email_key = ?`, [gate.key]);
  } else {
    await em.execute(
      `UPDATE ${table(ctx, "sign_in_device")} SET failures = 0, blocked_until = NULL WHERE token_hash = ?`,
      [gate.tokenHash],
    );
  }
}

/** Housekeeping: rows of addresses with no attempt for `forgetAfterMs` and no running block. */
export async function forgetOldSignInFailures(ctx: ServiceContext): Promise<number> {
  const at = now(ctx);
  const before = new Date(at.getTime() - ctx.deps.signInThrottle.forgetAfterMs);
  const rows = await ctx.em.execute<{ n: number }[]>(
    `WITH gone AS (DELETE FROM ${table(ctx, "sign_in_throttle")}
                    WHERE last_attempt_at < ? AND (blocked_until IS NULL OR blocked_until < ?) RETURNING 1)
     SELECT count(*)::int AS n FROM gone`,
    [before, at],
  );
  return rows[0]?.n ?? 0;
}
