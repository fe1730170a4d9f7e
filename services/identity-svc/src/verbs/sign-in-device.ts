import type { EntityManager } from "@mikro-orm/postgresql";
import { now, type ServiceContext, table } from "../context.ts";
import { randomSecret, sha256 } from "../crypto/secret-token.ts";
import { countAttempt, signInThrottled, type ThrottleRow } from "./lib/sign-in-backoff.ts";

/** Device tokens kept per account; the oldest beyond this are forgotten as new ones are issued. */
const DEVICES_PER_ACCOUNT = 20;

/**
 * OWASP "Slow Down Online Guessing Attacks with Device Cookies"
 * (https://owasp.org/www-community/Slow_Down_Online_Guessing_Attacks_with_Device_Cookies): a
 * successful sign-in hands the client a device token bound to the account. Only its SHA-256 is
 * stored (256 random bits: nothing to brute-force), with the account it belongs to and a backoff of
 * its own. A token of another account, an expired or a made-up one counts as no token at all.
 */

/**
 * Counts an attempt against the presented device token when it is a live token of `sub`; null
 * when it is not, or `sub` is null (no account: the caller falls back to the address's count). 429
 * while the token is held.
 */
export async function reserveDeviceAttempt(
  ctx: ServiceContext,
  sub: string | null,
  token: string,
): Promise<{ kind: "device"; tokenHash: string } | null> {
  const tokenHash = sha256(token);
  const at = now(ctx);
  const devices = table(ctx, "sign_in_device");
  const blockedFor = await ctx.em.transactional(async (em) => {
    // FOR UPDATE: concurrent attempts with one token are counted one after the other.
    const [row] = await em.execute<ThrottleRow[]>(
      `SELECT failures, blocked_until, last_attempt_at FROM ${devices}
        WHERE token_hash = ? AND sub = ? AND expires_at > ? FOR UPDATE`,
      [tokenHash, sub, at],
    );
    if (!row) return null;
    const { blockedForMs, next } = countAttempt(row, ctx.deps.signInThrottle, at);
    if (blockedForMs > 0) return blockedForMs;
    await em.execute(
      `UPDATE ${devices} SET failures = ?, blocked_until = ?, last_attempt_at = ? WHERE token_hash = ?`,
      [next.failures, next.blocked_until, at, tokenHash],
    );
    return 0;
  });
  if (blockedFor === null) return null;
  if (blockedFor > 0) throw signInThrottled(Math.ceil(blockedFor / 1000), "this device");
  return { kind: "device", tokenHash };
}

/**
 * After a successful sign-in: a fresh device token for `sub`, replacing `spentHash` (the hash of the token this
 * sign-in presented, if any), so a token copied off a device is good until the next sign-in there.
 * Call inside the sign-in's transaction.
 */
export async function issueDeviceToken(
  ctx: ServiceContext,
  em: EntityManager,
  sub: string,
  spentHash: string | null,
): Promise<string> {
  const token = `dvt_${randomSecret()}`;
  const at = now(ctx);
  const devices = table(ctx, "sign_in_device");
  if (spentHash !== null) {
    await em.execute(`DELETE FROM ${devices} WHERE token_hash = ? AND sub = ?`, [spentHash, sub]);
  }
  await em.execute(
    `INSERT INTO ${devices} (token_hash, sub, failures, blocked_until, last_attempt_at, created_at, expires_at)
     VALUES (?, ?, 0, NULL, ?, ?, ?)`,
    [sha256(token), sub, at, at, new Date(at.getTime() + ctx.deps.signInThrottle.deviceTtlMs)],
  );
  // Bounded per account: a client that never sends its token back cannot grow the table.
  await em.execute(
    `DELETE FROM ${devices} WHERE sub = ? AND token_hash NOT IN
       (SELECT token_hash FROM ${devices} WHERE sub = ? ORDER BY created_at DESC LIMIT ${DEVICES_PER_ACCOUNT})`,
    [sub, sub],
  );
  return token;
}

/** Housekeeping: expired device tokens. */
export async function forgetExpiredDevices(ctx: ServiceContext): Promise<number> {
  const rows = await ctx.em.execute<{ n: number }[]>(
    `WITH gone AS (DELETE FROM ${table(ctx, "sign_in_device")} WHERE expires_at < ? RETURNING 1)
     SELECT count(*)::int AS n FROM gone`,
    [now(ctx)],
  );
  return rows[0]?.n ?? 0;
}
