import { keyRole } from "@flowstate/contracts/auth/tenant-access";
import type { TenantRole } from "@flowstate/contracts/ids";
import { invalidApiKey, sessionRevoked } from "@flowstate/shared/auth/tenant-refusal";
import type { EntityManager } from "@mikro-orm/postgresql";
import type { Actor } from "../../actor.ts";
import { table } from "../../sql-table.ts";

export const sessionEnded = sessionRevoked;

type SessionRow = { status: string; disabled: boolean; revoked_at: Date | null };
type KeyRow = {
  revoked_at: Date | null;
  tenant_status: string;
  creator_status: string;
  creator_disabled: boolean;
  creator_role: TenantRole | null;
};

/**
 * The same check before a write route does anything (its access decision, validation, the verb):
 * mountRoute's credential gate (route-access.ts), as other services ask identity-svc for it. One
 * plain read, no transaction and no lock: it only decides that a dead credential is answered 401
 * before anything else; the verb's transaction checks again under its locks (inTransaction), and
 * that check is the one that serialises with a revocation. A locking check here cost a transaction
 * of its own on every write (BEGIN, a row lock that writes WAL, COMMIT and its flush: issue 26).
 */
export async function checkOwnCredential(ctx: {
  readonly actor: Actor;
  readonly deps: { readonly schema: string };
  readonly em: EntityManager;
}): Promise<void> {
  if (ctx.actor.kind !== "user" && ctx.actor.kind !== "api_key") return;
  await requireLiveCredential(ctx, ctx.em, { lock: false });
}

/**
 * The second half of revocation: the gateway checked the caller's session or API key before it
 * signed the assertion, but a signed request can be in flight (or replayed from a capture) while
 * the session is signed out, the account disabled or deleted, or the key revoked. Every write
 * transaction therefore re-reads the revocation facts first, under locks that conflict with every
 * revoking write, so the two serialise: either the revocation committed first and this write is
 * refused, or this write commits first and the revocation (and the answer that tells the gateway)
 * comes after it.
 *
 * Locks: a user's account row and session row FOR UPDATE, in that order, the order disableAccount,
 * deleteAccount and refreshTokens take them; FOR UPDATE (not SHARE) because the verbs that follow
 * lock the caller's own account row FOR UPDATE too (profile, preferences, tenant creation,
 * deletion), and two concurrent writes of one user each holding a share lock and asking for an
 * exclusive one would deadlock. Writes of one user serialise; they are rare. An API key's row
 * FOR SHARE: every path that revokes a key updates that row (revokeKeysOf).
 *
 * @example
 * await inTransaction(ctx, async (em) => { ... }); // calls this first for user and API key callers
 */
export async function requireLiveCredential(
  ctx: { readonly actor: Actor; readonly deps: { readonly schema: string } },
  em: EntityManager,
  /** false: a plain read (the write gate's early answer), not a check that serialises with revocations. */
  { lock = true }: { lock?: boolean } = {},
): Promise<void> {
  const a = ctx.actor;
  if (a.kind === "user") {
    const rows = await em.execute<SessionRow[]>(
      `SELECT u.status, u.disabled, s.revoked_at
         FROM ${table(ctx, "app_user")} u JOIN ${table(ctx, "user_session")} s ON s.sub = u.sub
        WHERE u.sub = ? AND s.sid = ?${lock ? " FOR UPDATE OF u, s" : ""}`,
      [a.sub, a.sid],
    );
    const row = rows[0];
    if (row?.status !== "active" || row.disabled || row.revoked_at !== null) throw sessionEnded();
  } else if (a.kind === "api_key") {
    const rows = await em.execute<KeyRow[]>(
      `SELECT k.revoked_at, t.status AS tenant_status, u.status AS creator_status, u.disabled AS creator_disabled,
              m.role AS creator_role
         FROM ${table(ctx, "api_key")} k
         JOIN ${table(ctx, "tenant")} t ON t.id = k.tenant_id
         JOIN ${table(ctx, "app_user")} u ON u.sub = k.created_by
         LEFT JOIN ${table(ctx, "membership")} m ON m.tenant_id = k.tenant_id AND m.sub = k.created_by
        WHERE k.key_id = ? AND k.tenant_id = ?${lock ? " FOR SHARE OF k" : ""}`,
      [a.key_id, a.tenant_id],
    );
    const row = rows[0];
    const live =
      row !== undefined &&
      row.revoked_at === null &&
      row.tenant_status === "active" &&
      row.creator_status === "active" &&
      !row.creator_disabled &&
      keyRole(a.scope, row.creator_role) !== null;
    if (!live) throw invalidApiKey();
  }
}
