import { createHash } from "node:crypto";
import type { TenantRole } from "@flowstate/contracts/ids";
import type { ApiKeyState } from "@flowstate/contracts/internal/identity";
import type { FeatureFlags } from "@flowstate/contracts/rest/identity/tenants";
import { CachedLookup } from "../cache/cached-lookup.ts";
import type { InvalidationLog } from "../cache/invalidation-log.ts";
import { depKeys } from "../cache/invalidations.ts";
import type { IdentityLookups } from "./identity-client.ts";

/** A session's revocation facts, with the instant pre-parsed: this is read on every request. */
export interface SessionFacts {
  sub: string;
  active: boolean;
  validAfterMs: number;
}

export interface CacheSettings {
  max: number;
  /** Session, API key and membership answers; the bound on staleness if an event is ever lost. */
  ttlMs: number;
  /** "Not found" answers. */
  negativeTtlMs: number;
  /** Feature flags: short, so a flag change reaches every instance within it even if its event is lost. */
  featureTtlMs: number;
}

export interface AccessState {
  /** Key `<sid> <sub>`; the sub is the token's, so a token cannot borrow another account's session. */
  sessions: CachedLookup<SessionFacts>;
  /** Key: sha256 of the key (the secret itself is never a map key, so a heap dump does not hold it twice). */
  apiKeys: CachedLookup<ApiKeyState, string>;
  /** Key `<tenant_id> <sub>` → the member's role. */
  memberships: CachedLookup<TenantRole>;
  /** Key `<tenant_id>` → its feature flags (looked up only for routes that declare a `feature`). */
  features: CachedLookup<FeatureFlags>;
  /**
   * Called before a request reads any of these caches: the door lease's check (ADR 0011), which
   * drops every cached fact while this instance's lease is not valid. Absent: caches always trusted
   * (an in-process gateway of a test, the only instance there is).
   */
  admit?: () => void;
}

export const apiKeyDigest = (key: string) => createHash("sha256").update(key).digest("base64url");

/**
 * The caches of identity-svc facts checked on every request, all invalidated through one
 * InvalidationLog (answer header and AccessRevoked events), each entry declaring the keys it
 * depends on: a session depends on its sid and its account; an API key on itself, its creator's
 * account and its tenant; a membership on itself, its tenant and the member's account; a tenant's
 * feature flags on its flags and the tenant (so any write through this instance drops them too).
 *
 * @example
 * const state = createAccessState(identity, log, { max: 50_000, ttlMs: 60_000, negativeTtlMs: 2_000 });
 */
export function createAccessState(
  identity: IdentityLookups,
  log: InvalidationLog,
  settings: CacheSettings,
  admit?: () => void,
): AccessState {
  const base = { log, max: settings.max, ttlMs: settings.ttlMs, negativeTtlMs: settings.negativeTtlMs };
  return {
    ...(admit ? { admit } : {}),
    sessions: new CachedLookup<SessionFacts>({
      ...base,
      fetch: async (key) => {
        const state = await identity.session(key.slice(0, key.indexOf(" ")));
        return state && { sub: state.sub, active: state.active, validAfterMs: Date.parse(state.tokens_valid_after) };
      },
      deps: (key, facts) => {
        const [sid, sub] = key.split(" ") as [string, string];
        return [depKeys.session(sid), depKeys.account(facts?.sub ?? sub)];
      },
    }),
    apiKeys: new CachedLookup<ApiKeyState, string>({
      ...base,
      fetch: (_digest, key) => identity.apiKey(key),
      deps: (_digest, state) =>
        state ? [depKeys.apiKey(state.key_id), depKeys.account(state.created_by), depKeys.tenant(state.tenant_id)] : [],
    }),
    features: new CachedLookup<FeatureFlags>({
      ...base,
      ttlMs: settings.featureTtlMs,
      negativeTtlMs: Math.min(settings.featureTtlMs, settings.negativeTtlMs),
      fetch: (tenantId) => identity.features(tenantId),
      deps: (tenantId) => [depKeys.features(tenantId), depKeys.tenant(tenantId)],
    }),
    memberships: new CachedLookup<TenantRole>({
      ...base,
      fetch: async (key) => {
        const [tenantId, sub] = key.split(" ") as [string, string];
        return (await identity.membership(tenantId, sub))?.role ?? null;
      },
      deps: (key) => {
        const [tenantId, sub] = key.split(" ") as [string, string];
        return [depKeys.membership(tenantId, sub), depKeys.tenant(tenantId), depKeys.account(sub)];
      },
    }),
  };
}
