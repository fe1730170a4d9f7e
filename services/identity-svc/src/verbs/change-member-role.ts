import type { ChangeMemberRoleRequest, Member } from "@flowstate/contracts/rest/identity/members";
import { DomainError, notFound } from "@flowstate/shared/errors/domain-error";
import { LockMode } from "@mikro-orm/postgresql";
import { emit, inTransaction, type ServiceContext } from "../context.ts";
import { Membership, User } from "../db/entities.ts";
import { authorizeTenant } from "./lib/authorize-tenant.ts";
import { revokeKeysOf } from "./lib/revoke-keys-of.ts";

export const ownerLocked = () =>
  new DomainError("conflict", "LAST_OWNER", "the owner cannot be removed or demoted; transfer ownership first");

/**
 * Sets a member's role to admin or member (admin or owner). The owner's role only changes through
 * an ownership transfer. A demotion to member revokes the API keys they created here.
 */
export async function changeMemberRole({
  ctx,
  tenantId,
  sub,
  input,
}: {
  ctx: ServiceContext;
  tenantId: string;
  sub: string;
  input: ChangeMemberRoleRequest;
}): Promise<Member> {
  const { member, invalidations } = await inTransaction(ctx, async (em) => {
    await authorizeTenant(ctx, em, tenantId, { minRole: "admin", apiKey: false });
    const m = await em.findOne(Membership, { tenant_id: tenantId, sub }, { lockMode: LockMode.PESSIMISTIC_WRITE });
    const user = m ? await em.findOne(User, { sub }) : null;
    if (!m || !user || user.status !== "active") throw notFound("member");
    if (m.role === "owner") throw ownerLocked();
    const keys = [];
    if (m.role !== input.role) {
      m.role = input.role;
      const meta = { tenant_id: tenantId, subject: sub }; // the member, not the admin acting
      emit(ctx, em, "MembershipRoleChanged.v1", { tenant_id: tenantId, sub, role: input.role }, meta);
      emit(ctx, em, "AccessRevoked.v1", { scope: "membership", tenant_id: tenantId, sub }, meta);
      if (input.role === "member") keys.push(...(await revokeKeysOf(ctx, em, sub, "creator_demoted", tenantId)));
    }
    const member: Member = {
      sub,
      name: user.name,
      email: user.email!,
      role: m.role,
      added_at: m.created_at.toISOString(),
    };
    return { member, invalidations: keys };
  });
  ctx.invalidations.push({ scope: "membership", tenant_id: tenantId, sub }, ...invalidations);
  return member;
}
