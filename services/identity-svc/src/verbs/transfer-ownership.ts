import type { OwnershipTransferRequest, Tenant } from "@flowstate/contracts/rest/identity/tenants";
import { DomainError } from "@flowstate/shared/errors/domain-error";
import { LockMode } from "@mikro-orm/postgresql";
import { emit, inTransaction, type ServiceContext } from "../context.ts";
import { Membership, User } from "../db/entities.ts";
import { authorizeTenant } from "./authorize-tenant.ts";
import { tenantView } from "./tenant-view.ts";

const notAMember = () =>
  new DomainError("unprocessable", "NOT_A_MEMBER", "the new owner must be an active member of the tenant");

/**
 * Makes another member the owner; the previous owner becomes an admin.
 *
 * Race with account deletion: the new owner's user row is locked FOR SHARE before anything
 * changes, and deleteAccount holds that row FOR UPDATE across its ownership check and its writes.
 * So either the deletion committed first (this sees the account gone and refuses) or this commits
 * first (the deletion, blocked until then, sees the new ownership and refuses with
 * OWNS_ACTIVE_TENANTS). An active tenant can never end up owned by a deleted account.
 */
export async function transferOwnership({
  ctx,
  tenantId,
  input,
}: {
  ctx: ServiceContext;
  tenantId: string;
  input: OwnershipTransferRequest;
}): Promise<Tenant> {
  const to = input.new_owner_sub;
  const { tenant, sub } = await inTransaction(ctx, async (em) => {
    const { sub } = await authorizeTenant(ctx, em, tenantId, { minRole: "owner", apiKey: false, lock: true });
    if (to === sub) throw new DomainError("unprocessable", "ALREADY_OWNER", "you already own this tenant");
    const target = await em.findOne(User, { sub: to }, { lockMode: LockMode.PESSIMISTIC_READ, refresh: true });
    if (target?.status !== "active" || target.disabled) throw notAMember();
    const theirs = await em.findOne(
      Membership,
      { tenant_id: tenantId, sub: to },
      { lockMode: LockMode.PESSIMISTIC_WRITE },
    );
    if (!theirs) throw notAMember();
    const mine = await em.findOneOrFail(Membership, { tenant_id: tenantId, sub });
    // One owner per tenant is a unique index checked row by row: demote first, then promote.
    mine.role = "admin";
    await em.flush();
    theirs.role = "owner";
    await em.flush();
    // The transfer is about the new owner; each revocation is about the member whose role changed.
    const data = { tenant_id: tenantId, from_sub: sub, to_sub: to };
    emit(ctx, em, "TenantOwnershipTransferred.v1", data, { tenant_id: tenantId, subject: to });
    emit(
      ctx,
      em,
      "AccessRevoked.v1",
      { scope: "membership", tenant_id: tenantId, sub },
      { tenant_id: tenantId, subject: sub },
    );
    emit(
      ctx,
      em,
      "AccessRevoked.v1",
      { scope: "membership", tenant_id: tenantId, sub: to },
      { tenant_id: tenantId, subject: to },
    );
    return { tenant: (await tenantView(ctx, em, tenantId, sub))!.tenant, sub };
  });
  ctx.invalidations.push(
    { scope: "membership", tenant_id: tenantId, sub },
    { scope: "membership", tenant_id: tenantId, sub: to },
  );
  return tenant;
}
