import type { Invalidation } from "@flowstate/contracts/internal/identity";
import type { ReceivedInvitation } from "@flowstate/contracts/rest/identity/invitations";
import { DomainError } from "@flowstate/shared/errors/domain-error";
import { type EntityManager, LockMode } from "@mikro-orm/postgresql";
import { emit, now, type ServiceContext } from "../context.ts";
import { type Invitation, Membership } from "../db/entities.ts";
import { recordAcceptance } from "./lib/invitation-lifecycle.ts";
import { answerInvitation } from "./lib/my-invitation.ts";
import { notAMember } from "./request-ownership-transfer.ts";

/**
 * The invitee says yes. A membership invitation makes them a member with the invited role; an
 * ownership transfer makes them the owner and the previous owner an admin. Either way it is the
 * invitee's own act: the events name them as actor and subject.
 *
 * Race with account deletion: the caller's own account row is locked FOR UPDATE before anything
 * changes (lockOpenInvitation), and deleteAccount holds it FOR UPDATE across its ownership check,
 * so a deletion and an acceptance serialise: either the account is gone and nothing is accepted,
 * or the acceptance commits first and the deletion sees the tenant it now owns (409). The previous
 * owner's deletion is refused while the transfer is pending, and may proceed once it is accepted.
 */
export async function acceptInvitation({
  ctx,
  invitationId,
}: {
  ctx: ServiceContext;
  invitationId: string;
}): Promise<ReceivedInvitation> {
  return answerInvitation(ctx, invitationId, async (em, invitation, sub) => {
    const invalidations =
      invitation.kind === "membership"
        ? await join(ctx, em, invitation, sub)
        : await takeOver(ctx, em, invitation, sub);
    recordAcceptance(ctx, em, invitation, sub);
    return invalidations;
  });
}

async function join(
  ctx: ServiceContext,
  em: EntityManager,
  invitation: Invitation,
  sub: string,
): Promise<Invalidation[]> {
  const tenantId = invitation.tenant_id;
  if (await em.findOne(Membership, { tenant_id: tenantId, sub })) {
    throw new DomainError("conflict", "ALREADY_MEMBER", "you are already a member of this tenant");
  }
  em.create(Membership, { tenant_id: tenantId, sub, role: invitation.role, created_at: now(ctx) });
  emit(
    ctx,
    em,
    "MembershipAdded.v1",
    { tenant_id: tenantId, sub, role: invitation.role },
    { tenant_id: tenantId, subject: sub },
  );
  // A gateway may hold "not a member" for this caller and tenant (a probe before accepting).
  return [{ scope: "membership", tenant_id: tenantId, sub }];
}

async function takeOver(
  ctx: ServiceContext,
  em: EntityManager,
  invitation: Invitation,
  sub: string,
): Promise<Invalidation[]> {
  const tenantId = invitation.tenant_id;
  const mine = await em.findOne(Membership, { tenant_id: tenantId, sub }, { lockMode: LockMode.PESSIMISTIC_WRITE });
  if (!mine) throw notAMember();
  const owner = await em.findOne(
    Membership,
    { tenant_id: tenantId, role: "owner" },
    { lockMode: LockMode.PESSIMISTIC_WRITE },
  );
  // A newer transfer cancels this one, and only an accepted transfer moves ownership, so the
  // owner who asked still owns the tenant; checked anyway rather than hand over someone else's.
  if (!owner || owner.sub !== invitation.invited_by) {
    throw new DomainError("conflict", "INVITATION_NOT_PENDING", "the tenant's owner has changed since this was asked", {
      extensions: { status: "cancelled" },
    });
  }
  // One owner per tenant is a unique index checked row by row: demote first, then promote.
  owner.role = "admin";
  await em.flush();
  mine.role = "owner";
  await em.flush();
  const from = owner.sub;
  const meta = { tenant_id: tenantId };
  emit(
    ctx,
    em,
    "TenantOwnershipTransferred.v1",
    { tenant_id: tenantId, from_sub: from, to_sub: sub },
    { ...meta, subject: sub },
  );
  emit(
    ctx,
    em,
    "AccessRevoked.v1",
    { scope: "membership", tenant_id: tenantId, sub: from },
    { ...meta, subject: from },
  );
  emit(ctx, em, "AccessRevoked.v1", { scope: "membership", tenant_id: tenantId, sub }, { ...meta, subject: sub });
  return [
    { scope: "membership", tenant_id: tenantId, sub: from },
    { scope: "membership", tenant_id: tenantId, sub },
  ];
}
