import { DomainError } from "@flowstate/shared/errors/domain-error";

export interface SignInThrottleSettings {
  /** Failures per address (or per device token) that cost nothing; the next one starts the backoff. */
  freeFailures: number;
  /** The first wait, doubled by each further failure. */
  baseMs: number;
  /** The longest wait. */
  maxMs: number;
  /** Failures are forgotten after this long without an attempt. */
  forgetAfterMs: number;
  /** How long a device token stays valid after the sign-in that issued it. */
  deviceTtlMs: number;
}

export const DEFAULT_SIGN_IN_THROTTLE: SignInThrottleSettings = {
  freeFailures: 5,
  baseMs: 1000,
  maxMs: 15 * 60_000,
  forgetAfterMs: 24 * 3600_000,
  deviceTtlMs: 90 * 24 * 3600_000,
};

/** The same answer for every address, with or without an account: no password is checked while it holds. */
export const signInThrottled = (retryAfterSec: number, what = "this e-mail address") =>
  new DomainError(
    "rate_limited",
    "SIGN_IN_THROTTLED",
    `too many failed sign-ins for ${what}; wait ${retryAfterSec} s before trying again`,
    { retryAfter: retryAfterSec },
  );

/** A throttle row: the address's (sign_in_throttle) or a device token's (sign_in_device). */
export type ThrottleRow = { failures: number; blocked_until: Date | null; last_attempt_at: Date };

/**
 * One more attempt against a row: the ms it is still blocked for (0: go ahead), and its next state.
 * From the `freeFailures`-th attempt on, each one blocks for `baseMs`, doubling up to `maxMs`.
 */
export function countAttempt(
  row: ThrottleRow,
  s: SignInThrottleSettings,
  at: Date,
): { blockedForMs: number; next: { failures: number; blocked_until: Date | null } } {
  const blockedUntil = row.blocked_until ? new Date(row.blocked_until).getTime() : 0;
  if (blockedUntil > at.getTime()) return { blockedForMs: blockedUntil - at.getTime(), next: row };
  const stale = at.getTime() - new Date(row.last_attempt_at).getTime() > s.forgetAfterMs;
  const failures = (stale ? 0 : row.failures) + 1;
  const over = failures - s.freeFailures;
  const block = over >= 0 ? new Date(at.getTime() + Math.min(s.maxMs, s.baseMs * 2 ** Math.min(over, 30))) : null;
  return { blockedForMs: 0, next: { failures, blocked_until: block } };
}
