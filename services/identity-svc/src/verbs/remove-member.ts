import { notFound } from "@flowstate/shared/errors/domain-error";
import { LockMode } from "@mikro-orm/postgresql";
import { emit, inTransaction, type ServiceContext } from "../context.ts";
import { Membership } from "../db/entities.ts";
import { ownerLocked } from "./change-member-role.ts";
import { authorizeTenant } from "./lib/authorize-tenant.ts";
import { revokeKeysOf } from "./lib/revoke-keys-of.ts";

/** Removes a member (admin or owner; never the owner). The API keys they created here are revoked. */
export async function removeMember({
  ctx,
  tenantId,
  sub,
}: {
  ctx: ServiceContext;
  tenantId: string;
  sub: string;
}): Promise<void> {
  const invalidations = await inTransaction(ctx, async (em) => {
    await authorizeTenant(ctx, em, tenantId, { minRole: "admin", apiKey: false });
    const m = await em.findOne(Membership, { tenant_id: tenantId, sub }, { lockMode: LockMode.PESSIMISTIC_WRITE });
    if (!m) throw notFound("member");
    if (m.role === "owner") throw ownerLocked();
    em.remove(m);
    const meta = { tenant_id: tenantId, subject: sub }; // the member, not the admin acting
    emit(ctx, em, "MembershipRemoved.v1", { tenant_id: tenantId, sub }, meta);
    emit(ctx, em, "AccessRevoked.v1", { scope: "membership", tenant_id: tenantId, sub }, meta);
    return revokeKeysOf(ctx, em, sub, "creator_removed", tenantId);
  });
  ctx.invalidations.push({ scope: "membership", tenant_id: tenantId, sub }, ...invalidations);
}
