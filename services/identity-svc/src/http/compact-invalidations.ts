import type { Invalidation } from "@flowstate/contracts/internal/identity";

/** One account's sessions named one by one up to this many; past it, the account's one entry. */
const SESSIONS_PER_ACCOUNT = 10;

/**
 * The most one call's list names. It rides on the answer as a header (Node's and undici's limit on
 * all of an answer's headers is 16 KiB) and in the push to every door (InvalidationList: at most
 * 100 entries); past this, the list says "everything".
 */
export const MAX_NAMED = 50;

/** Names nothing: every door drops every cached fact (edge-gateway's keysFor). */
const EVERYTHING: Invalidation = { scope: "account" };

/**
 * A call's invalidations as the doors are told them. Sign-out everywhere and an account's
 * disabling or deletion name every session the account has, and sessions are one per sign-in:
 * an account signed in a hundred times made a list no door accepts (the push refused, every door
 * evicted and the answer held a lease; past ~165, a header the gateway could not read, a 503).
 * So an account's sessions beyond a few become the account's one entry (which drops every cached
 * fact of the account, its sessions with them), and a list still too long becomes "everything"
 * (a refill of the doors' caches, never a fact kept past its revocation).
 *
 * @example
 * compactInvalidations(sessions.map((s) => ({ scope: "session", sid: s.sid, sub }))) // 11+: [{ scope: "account", sub }]
 */
export function compactInvalidations(list: readonly Invalidation[]): Invalidation[] {
  const sessions = new Map<string, number>();
  for (const inv of list)
    if (inv.scope === "session" && inv.sid && inv.sub) sessions.set(inv.sub, (sessions.get(inv.sub) ?? 0) + 1);
  const collapsed = new Set([...sessions].filter(([, n]) => n > SESSIONS_PER_ACCOUNT).map(([sub]) => sub));
  const out: Invalidation[] = [];
  const seen = new Set<string>();
  const add = (inv: Invalidation) => {
    const key = JSON.stringify([inv.scope, inv.sub, inv.sid, inv.key_id, inv.tenant_id]);
    if (!seen.has(key)) {
      seen.add(key);
      out.push(inv);
    }
  };
  for (const inv of list) {
    if (inv.scope === "session" && inv.sub && collapsed.has(inv.sub)) add({ scope: "account", sub: inv.sub });
    else add(inv);
  }
  return out.length > MAX_NAMED ? [EVERYTHING] : out;
}
