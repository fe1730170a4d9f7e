import type { AddMemberRequest, Member } from "@flowstate/contracts/rest/identity/members";
import { DomainError } from "@flowstate/shared/errors/domain-error";
import { LockMode } from "@mikro-orm/postgresql";
import { emit, inTransaction, now, type ServiceContext } from "../context.ts";
import { Membership, User } from "../db/entities.ts";
import { authorizeTenant } from "./authorize-tenant.ts";
import { emailKey } from "./sign-up.ts";

/**
 * Adds an existing, active account by e-mail (admin or owner). There is no invitation flow yet, so
 * an unknown address answers 404 USER_NOT_FOUND; that tells a signed-in admin whether an address
 * has an account, which the README discusses (rate-limited by the gateway, and accountable).
 */
export async function addMember({
  ctx,
  tenantId,
  input,
}: {
  ctx: ServiceContext;
  tenantId: string;
  input: AddMemberRequest;
}): Promise<Member> {
  return inTransaction(ctx, async (em) => {
    await authorizeTenant(ctx, em, tenantId, { minRole: "admin", apiKey: false, lock: true });
    // FOR SHARE: serialises with the account's deletion (FOR UPDATE), so a deleted account never gains a membership.
    const user = await em.findOne(User, { email_key: emailKey(input.email) }, { lockMode: LockMode.PESSIMISTIC_READ });
    if (user?.status !== "active" || user.disabled) {
      throw new DomainError("not_found", "USER_NOT_FOUND", "no active Flowstate account has this e-mail address");
    }
    if (await em.findOne(Membership, { tenant_id: tenantId, sub: user.sub })) {
      throw new DomainError("conflict", "ALREADY_MEMBER", "this person is already a member of the tenant");
    }
    const at = now(ctx);
    em.create(Membership, { tenant_id: tenantId, sub: user.sub, role: input.role, created_at: at });
    emit(
      ctx,
      em,
      "MembershipAdded.v1",
      { tenant_id: tenantId, sub: user.sub, role: input.role },
      { tenant_id: tenantId, subject: user.sub },
    );
    return { sub: user.sub, name: user.name, email: user.email!, role: input.role, added_at: at.toISOString() };
  });
}
