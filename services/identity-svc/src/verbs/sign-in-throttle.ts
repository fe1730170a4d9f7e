import { DomainError } from "@flowstate/shared/errors/domain-error";
import { now, type ServiceContext, table } from "../context.ts";

export interface SignInThrottleSettings {
  /** Failures per address that cost nothing; the next one starts the backoff. */
  freeFailures: number;
  /** The first wait, doubled by each further failure. */
  baseMs: number;
  /** The longest wait. */
  maxMs: number;
  /** Failures are forgotten after this long without an attempt. */
  forgetAfterMs: number;
}

export const DEFAULT_SIGN_IN_THROTTLE: SignInThrottleSettings = {
  freeFailures: 5,
  baseMs: 1000,
  maxMs: 15 * 60_000,
  forgetAfterMs: 24 * 3600_000,
};

/** The same answer for every address, with or without an account: no password is checked while it holds. */
export const signInThrottled = (retryAfterSec: number) =>
  new DomainError(
    "rate_limited",
    "SIGN_IN_THROTTLED",
    `too many failed sign-ins for this e-mail address; wait ${retryAfterSec} s before trying again`,
    { retryAfter: retryAfterSec },
  );

type Row = { failures: number; blocked_until: Date | null; last_attempt_at: Date };

/**
 * Per-address brute-force protection for password sign-in (issue 7): the gateway's per-client
 * limit cannot see a guesser that spreads over many addresses or sits behind one load balancer.
 * Each attempt is counted against the lower-cased e-mail address BEFORE the password is checked
 * (so a burst of parallel guesses is counted as it arrives, not after the Argon2 work), whether
 * or not the address has an account, so the answers for both are the same. From the
 * `freeFailures`-th failure on, the address is blocked for `baseMs`, doubling with each further
 * failure up to `maxMs`; while blocked, every attempt (a right password too) is refused with
 * 429 SIGN_IN_THROTTLED and `Retry-After`, at no hashing cost. A successful sign-in clears the
 * count (clearSignInFailures).
 *
 * The price of any per-account limit: someone who knows an address can keep its owner waiting
 * (one guess per backoff period, at most `maxMs`). Sessions and refresh tokens already issued are
 * untouched, so a signed-in user is not locked out.
 *
 * @example
 * await reserveSignInAttempt(ctx, emailKey(input.email)); // throws 429 while blocked
 */
export async function reserveSignInAttempt(ctx: ServiceContext, emailKey: string): Promise<void> {
  const s = ctx.deps.signInThrottle;
  const at = now(ctx);
  const throttle = table(ctx, "sign_in_throttle");
  const blockedFor = await ctx.em.transactional(async (em) => {
    await em.execute(
      `INSERT INTO ${throttle} (email_key, failures, blocked_until, last_attempt_at) VALUES (?, 0, NULL, ?)
       ON CONFLICT (email_key) DO NOTHING`,
      [emailKey, at],
    );
    // FOR UPDATE: concurrent attempts for one address are counted one after the other.
    const [row] = await em.execute<Row[]>(
      `SELECT failures, blocked_until, last_attempt_at FROM ${throttle} WHERE email_key = ? FOR UPDATE`,
      [emailKey],
    );
    const blockedUntil = row!.blocked_until ? new Date(row!.blocked_until).getTime() : 0;
    if (blockedUntil > at.getTime()) return blockedUntil - at.getTime();
    const stale = at.getTime() - new Date(row!.last_attempt_at).getTime() > s.forgetAfterMs;
    const failures = (stale ? 0 : row!.failures) + 1;
    const over = failures - s.freeFailures;
    const block = over >= 0 ? new Date(at.getTime() + Math.min(s.maxMs, s.baseMs * 2 ** Math.min(over, 30))) : null;
    await em.execute(
      `UPDATE ${throttle} SET failures = ?, blocked_until = ?, last_attempt_at = ? WHERE email_key = ?`,
      [failures, block, at, emailKey],
    );
    return 0;
  });
  if (blockedFor > 0) throw signInThrottled(Math.ceil(blockedFor / 1000));
}

/** The right password: the address starts afresh. */
export async function clearSignInFailures(ctx: ServiceContext, emailKey: string): Promise<void> {
  await ctx.em.execute(`DELETE FROM ${table(ctx, "sign_in_throttle")} WHERE email_key = ?`, [emailKey]);
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
