import type { ProblemCode } from "../errors/codes.ts";
import type { TenantRole } from "../ids.ts";

/**
 * The one rule of who may do what in a tenant, used by the gateway (before it forwards), by every
 * service (again, inside its transaction) and by the tests. Pure: the caller supplies the facts
 * (the caller's role, or a key's scope and its creator's current role).
 */

const RANK: Record<TenantRole, number> = { member: 1, admin: 2, owner: 3 };

/** `role` is `min` or higher (owner > admin > member). */
export const atLeast = (role: TenantRole, min: TenantRole): boolean => RANK[role] >= RANK[min];

const lower = (a: TenantRole, b: TenantRole): TenantRole => (RANK[a] <= RANK[b] ? a : b);

/** Only an admin or owner may create an API key, and a key lives only while its creator still is one. */
export const KEY_CREATOR_MIN_ROLE: TenantRole = "admin";

/** The highest role each API key scope stands for. */
export const SCOPE_CEILING: Record<"read" | "write", TenantRole> = { read: "member", write: "admin" };

/**
 * The role an API key acts with: the lower of its scope's ceiling and its creator's current role
 * in the key's tenant, so a key never does more than its scope says nor more than the person who
 * made it still may. Null (the key is dead, 401 INVALID_API_KEY) once the creator is no longer an
 * admin or owner there (demoted, removed, or `null`: not a member).
 *
 * @example
 * keyRole("write", "owner") // "admin"
 * keyRole("read", "member") // null: the creator was demoted
 */
export function keyRole(scope: "read" | "write", creatorRole: TenantRole | null): TenantRole | null {
  if (creatorRole === null || !atLeast(creatorRole, KEY_CREATOR_MIN_ROLE)) return null;
  return lower(SCOPE_CEILING[scope], creatorRole);
}

/** What a tenant route (or verb) requires: the registry's `minRole` and `apiKey`. */
export interface TenantNeed {
  minRole: TenantRole;
  /** The key scope that may call it, or false/undefined when only a user's token may. */
  apiKey?: "read" | "write" | false | undefined;
}

/** The caller as far as the rule is concerned: a member's role (null: not a member), or a key. */
export type TenantCaller =
  | { kind: "user"; role: TenantRole | null }
  | { kind: "api_key"; scope: "read" | "write"; creatorRole: TenantRole | null };

export type TenantRefusalCode = Extract<
  ProblemCode,
  "NOT_FOUND" | "INVALID_API_KEY" | "API_KEY_NOT_ALLOWED" | "INSUFFICIENT_SCOPE" | "INSUFFICIENT_ROLE"
>;
export type TenantDecision = { ok: true; role: TenantRole } | { ok: false; code: TenantRefusalCode };

/**
 * Decides access to a tenant route. Refusals in the order callers see them: not a member → 404
 * NOT_FOUND (a tenant you cannot see looks missing); a dead key → 401 INVALID_API_KEY; a key on a
 * token-only route → 403 API_KEY_NOT_ALLOWED; a read key on a write route → 403
 * INSUFFICIENT_SCOPE; a role below `minRole` → 403 INSUFFICIENT_ROLE.
 *
 * @example
 * decideTenantAccess({ minRole: "member", apiKey: "read" }, { kind: "api_key", scope: "read", creatorRole: "admin" })
 * // { ok: true, role: "member" }
 */
export function decideTenantAccess(need: TenantNeed, caller: TenantCaller): TenantDecision {
  if (caller.kind === "user") {
    if (caller.role === null) return { ok: false, code: "NOT_FOUND" };
    return decideFor(need, caller.role, undefined);
  }
  const role = keyRole(caller.scope, caller.creatorRole);
  if (role === null) return { ok: false, code: "INVALID_API_KEY" };
  return decideFor(need, role, caller.scope);
}

/** The part of the rule both callers share: a key's route kind and scope, then the effective role. */
function decideFor(need: TenantNeed, role: TenantRole, keyScope: "read" | "write" | undefined): TenantDecision {
  if (keyScope !== undefined) {
    if (!need.apiKey) return { ok: false, code: "API_KEY_NOT_ALLOWED" };
    if (need.apiKey === "write" && keyScope !== "write") return { ok: false, code: "INSUFFICIENT_SCOPE" };
  }
  if (!atLeast(role, need.minRole)) return { ok: false, code: "INSUFFICIENT_ROLE" };
  return { ok: true, role };
}

/**
 * What a service knows of a tenant call: the gateway's signed decision (`signed`: the tenant it
 * resolved and the effective role, for a key already its scope capped by its creator's role) and,
 * for a key, its own tenant and scope.
 */
export type SignedTenantCaller =
  | { kind: "user"; signed: { tenant_id: string; role: TenantRole } | undefined }
  | {
      kind: "api_key";
      keyTenantId: string;
      scope: "read" | "write";
      signed: { tenant_id: string; role: TenantRole } | undefined;
    };

/**
 * The same rule, applied by a service (the seam, shared/src/seam/) to what the gateway signed:
 * the signed tenant (and a key's own tenant) must be the path's tenant, else NOT_FOUND, exactly
 * like a tenant that does not exist; then a key's route kind and scope; then the signed role
 * against `minRole`. The signed role is already the effective one (`keyRole` ran at the gateway,
 * with the creator's current role), so it is not capped again here; whether the key or session is
 * still live is the write's re-check (credential check), not this.
 *
 * @example
 * decideSignedTenantAccess({ minRole: "admin", apiKey: "write" }, "tnt_a",
 *   { kind: "api_key", keyTenantId: "tnt_a", scope: "read", signed: { tenant_id: "tnt_a", role: "member" } })
 * // { ok: false, code: "INSUFFICIENT_SCOPE" }
 */
export function decideSignedTenantAccess(
  need: TenantNeed,
  pathTenantId: string,
  caller: SignedTenantCaller,
): TenantDecision {
  if (caller.signed?.tenant_id !== pathTenantId) return { ok: false, code: "NOT_FOUND" };
  if (caller.kind === "user") return decideFor(need, caller.signed.role, undefined);
  if (caller.keyTenantId !== pathTenantId) return { ok: false, code: "NOT_FOUND" };
  return decideFor(need, caller.signed.role, caller.scope);
}
