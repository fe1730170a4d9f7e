import { type Invalidation, InvalidationList } from "@flowstate/contracts/internal/identity";
import type { InvalidationLog } from "./invalidation-log.ts";

/** The invalidation-log keys cached facts depend on (see CachedLookup `deps`). */
export const depKeys = {
  account: (sub: string) => `acct:${sub}`,
  session: (sid: string) => `ses:${sid}`,
  apiKey: (keyId: string) => `key:${keyId}`,
  membership: (tenantId: string, sub: string) => `mem:${tenantId}:${sub}`,
  tenant: (tenantId: string) => `tnt:${tenantId}`,
  features: (tenantId: string) => `feat:${tenantId}`,
};

/**
 * The keys one invalidation stamps: the most specific it names. One that names nothing usable
 * returns null, and the caller drops everything: a revocation must never be ignored for being vague.
 */
export function keysFor(inv: Invalidation): string[] | null {
  const keys: string[] = [];
  switch (inv.scope) {
    case "account":
      if (inv.sub) keys.push(depKeys.account(inv.sub));
      break;
    case "session":
      if (inv.sid) keys.push(depKeys.session(inv.sid));
      else if (inv.sub) keys.push(depKeys.account(inv.sub));
      break;
    case "api_key":
      if (inv.key_id) keys.push(depKeys.apiKey(inv.key_id));
      else if (inv.tenant_id) keys.push(depKeys.tenant(inv.tenant_id));
      break;
    case "membership":
      if (inv.tenant_id && inv.sub) keys.push(depKeys.membership(inv.tenant_id, inv.sub));
      else if (inv.tenant_id) keys.push(depKeys.tenant(inv.tenant_id));
      else if (inv.sub) keys.push(depKeys.account(inv.sub));
      break;
    case "features":
      if (inv.tenant_id) keys.push(depKeys.features(inv.tenant_id));
      break;
  }
  return keys.length ? keys : null;
}

/**
 * Applies invalidations to the log, synchronously. Used for the `flowstate-invalidate` answer
 * header (before the answer is relayed) and for AccessRevoked events from other instances' calls.
 */
export function applyInvalidations(log: InvalidationLog, list: readonly Invalidation[]): void {
  const keys: string[] = [];
  for (const inv of list) {
    const k = keysFor(inv);
    if (k === null) {
      log.markAll();
      return;
    }
    keys.push(...k);
  }
  if (keys.length) log.mark(keys);
}

/**
 * Parses the header identity-svc sets on revoking answers: a JSON array of invalidations (a single
 * object is accepted too). Unparseable means "something was revoked, we cannot tell what": the
 * caller must then drop everything rather than keep possibly revoked state.
 */
export function parseInvalidateHeader(value: string): Invalidation[] | null {
  try {
    const json: unknown = JSON.parse(value);
    const parsed = InvalidationList.safeParse(Array.isArray(json) ? json : [json]);
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}
