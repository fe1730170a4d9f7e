import type { AccountDeleted } from "@flowstate/contracts/rest/identity/users";
import { DomainError } from "@flowstate/shared/errors/domain-error";
import { LockMode } from "@mikro-orm/postgresql";
import { emit, inTransaction, now, type ServiceContext, table } from "../context.ts";
import { Membership, NotificationPreferencesRow, User } from "../db/entities.ts";
import { eraseAccountTraces } from "./lib/erase-account-traces.ts";
import { revokeAccountAccess } from "./lib/revoke-account-access.ts";

/**
 * Deletes an account: refused with 409 OWNS_ACTIVE_TENANTS (listing them) while it owns an active
 * tenant; otherwise, in one transaction, revokes all its access, removes its memberships (of
 * soft-deleted tenants too), erases its personal data (e-mail, name, picture, password hash; the
 * opaque `sub` stays so history and events still resolve), cancels the invitations it sent or was
 * sent and erases the address from every invitation to it, deletes its OAuth consents and device
 * tokens (eraseAccountTraces; docs/erasure.md) and announces AccountDeleted.
 *
 * Atomic with the ownership check: the user row is locked FOR UPDATE before the check and held to
 * the commit, and every path that makes someone an owner (tenant creation, ownership transfer)
 * locks that person's row first, so none can slip in between check and delete.
 */
export async function deleteAccount({ ctx, sub }: { ctx: ServiceContext; sub: string }): Promise<AccountDeleted> {
  const { deletedAt, invalidations } = await inTransaction(ctx, async (em) => {
    const user = await em.findOne(User, { sub }, { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true });
    if (user?.status !== "active") {
      throw new DomainError("unauthenticated", "ACCOUNT_INACTIVE", "this account is disabled or deleted");
    }
    const owned = await em.execute<{ id: string }[]>(
      `SELECT t.id FROM ${table(ctx, "membership")} m JOIN ${table(ctx, "tenant")} t ON t.id = m.tenant_id
        WHERE m.sub = ? AND m.role = 'owner' AND t.status = 'active' ORDER BY t.id`,
      [sub],
    );
    if (owned.length) {
      const tenantIds = owned.map((r) => r.id);
      throw new DomainError("conflict", "OWNS_ACTIVE_TENANTS", "transfer or delete the tenants you own first", {
        extensions: { tenant_ids: tenantIds },
      });
    }
    const at = now(ctx);
    // Memberships before API keys: member removal and demotion lock the membership, then the
    // keys; taking them in the same order here means the two can never deadlock.
    const memberships = await em.find(Membership, { sub }, { lockMode: LockMode.PESSIMISTIC_WRITE });
    for (const m of memberships) {
      em.remove(m);
      emit(ctx, em, "MembershipRemoved.v1", { tenant_id: m.tenant_id, sub }, { tenant_id: m.tenant_id, subject: sub });
    }
    const invalidations = [
      ...(await revokeAccountAccess(ctx, em, user, { session: "account_deleted", key: "creator_deleted" })),
      ...memberships.map((m) => ({ scope: "membership" as const, tenant_id: m.tenant_id, sub })),
    ];
    await eraseAccountTraces(ctx, em, user);
    const prefs = await em.findOne(NotificationPreferencesRow, { sub });
    if (prefs) em.remove(prefs);
    Object.assign(user, {
      status: "deleted",
      deleted_at: at,
      email: null,
      email_key: null,
      name: "",
      picture_url: null,
      password_hash: null,
    });
    emit(ctx, em, "AccountDeleted.v1", { sub, deleted_at: at.toISOString() }, { subject: sub });
    return { deletedAt: at, invalidations };
  });
  ctx.invalidations.push(...invalidations);
  return { deleted: true, sub, deleted_at: deletedAt.toISOString() };
}
