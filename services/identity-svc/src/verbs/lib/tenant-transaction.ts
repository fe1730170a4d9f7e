import type { TenantNeed } from "@flowstate/contracts/auth/tenant-access";
import type { TenantRole } from "@flowstate/contracts/ids";
import { emRunner, inPreparedTransaction, type SqlRunner } from "@flowstate/shared/db/prepared-transaction";
import type { EntityManager } from "@mikro-orm/postgresql";
import type { ServiceContext } from "../../context.ts";
import { table } from "../../sql-table.ts";
import { authorizeTenant, decide, type TenantAccess } from "./authorize-tenant.ts";
import { requireLiveCredential, sessionEnded } from "./live-credential.ts";

/** What a tenant write sees of the tenant: the columns it answers with, read under its locks. */
export interface LockedTenant extends Omit<TenantAccess, "tenant"> {
  tenant: { id: string; name: string; created_at: Date };
  /**
   * True when the first statement also took the door set's lock (`doors` option): a later
   * statement of this transaction may then read the doors to push to (door-leases.ts `atCommit`).
   */
  doorsHeld: boolean;
}

type LockRow = {
  credential_status: string;
  credential_disabled: boolean;
  credential_revoked_at: Date | null;
  id: string;
  name: string;
  created_at: Date | string;
  role: TenantRole;
  owner_sub: string;
};

/**
 * Runs a write on one tenant in a transaction that begins with ONE statement doing what
 * `inTransaction` + `authorizeTenant` do in two (issue 26: each statement is a round trip): the
 * caller's credential re-checked and the tenant with the caller's and the owner's memberships
 * checked, all under the locks they take apart, in the same order: the account row and the session
 * row FOR UPDATE (live-credential.ts: the order every revoking write takes them), then the tenant,
 * the caller's membership and the owner's (authorize-tenant.ts: the order every tenant verb takes
 * them). PostgreSQL locks a row's marks in the order of the FOR UPDATE OF list, and re-reads a row
 * that changed while it waited, so a revocation or a role change committed meanwhile is seen. The
 * refusals are the same and in the same order: 401 for a dead credential, then 404 before 403.
 *
 * The two statements run as named prepared statements on one pooled connection
 * (shared/src/db/prepared-transaction.ts): MikroORM sends a statement with its values inlined, which
 * PostgreSQL parses and plans every time. `fn` gets the transaction's `SqlRunner` for its own
 * statements. When the lock statement finds no row (not a member, no such tenant, the owner changed
 * while it waited) that transaction ends having locked nothing, and the caller's credential and the
 * tenant are checked apart in the unit of work's transaction (`inTransaction` + `authorizeTenant`),
 * which tell the cases apart; so are API keys (no tenant write admits one; their check is the
 * key's own). Inside a transaction the caller opened already (a larger verb, a test), it joins it
 * and re-checks the tenant only, as `inTransaction` does.
 *
 * @example
 * await inTenantTransaction(ctx, tenantId, { minRole: "admin", apiKey: false }, async (sql, { tenant }) => { ... });
 */
export async function inTenantTransaction<T>(
  ctx: ServiceContext,
  tenantId: string,
  need: TenantNeed,
  fn: (sql: SqlRunner, access: LockedTenant) => Promise<T>,
  /** doors: also take the door set's lock in the first statement (a verb that pushes invalidations). */
  options: { doors?: boolean } = {},
): Promise<T> {
  // A unit of work this call already started may be in a transaction; none started cannot be.
  const em = ctx.existingEm();
  if (em?.isInTransaction()) {
    return fn(emRunner(em), { ...(await authorizeTenant(ctx, em, tenantId, need)), doorsHeld: false });
  }
  if (ctx.actor.kind === "user") {
    // The ORM's own em only lends its pool: the fast path needs no unit of work of its own.
    const done = await inPreparedTransaction(ctx.deps.orm.em, async (sql) => {
      const locked = await lockCredentialAndTenant(ctx, sql, tenantId, need, options.doors === true);
      return locked ? { result: await fn(sql, locked) } : undefined;
    });
    if (done) return done.result;
  }
  return ctx.em.transactional(async (tx) => {
    const em = tx as EntityManager;
    await requireLiveCredential(ctx, em);
    return fn(emRunner(em), { ...(await authorizeTenant(ctx, em, tenantId, need)), doorsHeld: false });
  });
}

/** The one statement, for a user on a live tenant they are a member of; undefined otherwise (see above). */
async function lockCredentialAndTenant(
  ctx: ServiceContext,
  sql: SqlRunner,
  tenantId: string,
  need: TenantNeed,
  doors: boolean,
): Promise<LockedTenant | undefined> {
  const a = ctx.actor;
  if (a.kind !== "user") throw new Error("lockCredentialAndTenant is for a user's call");
  const locking = `SELECT u.status AS credential_status, u.disabled AS credential_disabled, s.revoked_at AS credential_revoked_at,
            t.id, t.name, t.created_at, m.role, o.sub AS owner_sub
       FROM ${table(ctx, "app_user")} u
       JOIN ${table(ctx, "user_session")} s ON s.sub = u.sub AND s.sid = ?
       JOIN ${table(ctx, "tenant")} t ON t.id = ? AND t.status = 'active'
       JOIN ${table(ctx, "membership")} m ON m.tenant_id = t.id AND m.sub = u.sub
       JOIN ${table(ctx, "membership")} o ON o.tenant_id = t.id AND o.role = 'owner'
      WHERE u.sub = ?
        FOR UPDATE OF u, s, t, m, o`;
  // The door set's lock once the row locks are held (the materialized CTE locks its rows before the
  // outer SELECT sees them): a write waiting for a tenant's lock holds no door set, so lease renewals
  // wait only for writes that are running, never for one queued behind a long transaction.
  const [row] = await sql.execute<LockRow>(
    doors
      ? `WITH locked AS MATERIALIZED (${locking})
         SELECT locked.*, ${ctx.deps.doors.leases.atCommit.holdShared} AS doors_held FROM locked`
      : locking,
    [a.sid, tenantId, a.sub],
  );
  if (!row) return undefined;
  // The credential first, as requireLiveCredential decides it: a dead one is 401 whatever the tenant says.
  if (row.credential_status !== "active" || row.credential_disabled || row.credential_revoked_at !== null) {
    throw sessionEnded();
  }
  return {
    tenant: { id: row.id, name: row.name, created_at: new Date(row.created_at) },
    ownerSub: row.owner_sub,
    role: decide(need, a, row.role),
    sub: a.sub,
    doorsHeld: doors,
  };
}
