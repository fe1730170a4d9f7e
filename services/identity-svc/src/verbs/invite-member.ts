import type { SentInvitation } from "@flowstate/contracts/rest/identity/invitations";
import type { AddMemberRequest } from "@flowstate/contracts/rest/identity/members";
import { DomainError } from "@flowstate/shared/errors/domain-error";
import { newId } from "@flowstate/shared/ids/new-id";
import { LockMode } from "@mikro-orm/postgresql";
import { emit, inTransaction, now, type ServiceContext, table } from "../context.ts";
import { Invitation } from "../db/entities.ts";
import { authorizeTenant } from "./lib/authorize-tenant.ts";
import { INVITATION_TTL_MS, toSentInvitation } from "./lib/invitation-view.ts";
import { emailKey } from "./sign-up.ts";

/**
 * Invites an e-mail address to the tenant (admin or owner). Nobody becomes a member without
 * accepting (decisions.md, Consent), and the answer must not tell the admin whether the address
 * has an account: so this never looks the address up among accounts. It records an invitation
 * keyed by the lower-cased address, visible to whoever holds (or later signs up with) that
 * address, and answers 201 with the same shape, the same work and so the same timing for every
 * address. The only refusal that depends on the address, 409 ALREADY_MEMBER, reveals nothing the
 * admin cannot read in the member list.
 *
 * Inviting an address that already has an open invitation refreshes it (new role, inviter and
 * seven days) and keeps its id.
 */
export async function inviteMember({
  ctx,
  tenantId,
  input,
}: {
  ctx: ServiceContext;
  tenantId: string;
  input: AddMemberRequest;
}): Promise<SentInvitation> {
  const key = emailKey(input.email);
  return inTransaction(ctx, async (em) => {
    // The tenant row FOR UPDATE serialises invitations to one tenant with each other and with acceptance.
    const { sub: inviter } = await authorizeTenant(ctx, em, tenantId, { minRole: "admin", apiKey: false, lock: true });
    const members = await em.execute<{ n: number }[]>(
      `SELECT count(*)::int AS n FROM ${table(ctx, "membership")} m
         JOIN ${table(ctx, "app_user")} u ON u.sub = m.sub
        WHERE m.tenant_id = ? AND u.email_key = ?`,
      [tenantId, key],
    );
    if (members[0]!.n > 0) {
      throw new DomainError("conflict", "ALREADY_MEMBER", "this person is already a member of the tenant");
    }
    const at = now(ctx);
    const open = await em.findOne(
      Invitation,
      { tenant_id: tenantId, email_key: key, kind: "membership", status: "pending" },
      { lockMode: LockMode.PESSIMISTIC_WRITE },
    );
    let invitation: Invitation;
    if (open && open.expires_at > at) {
      Object.assign(open, { email: input.email, role: input.role, invited_by: inviter, created_at: at });
      open.expires_at = new Date(at.getTime() + INVITATION_TTL_MS);
      invitation = open;
    } else {
      if (open) {
        // Past its date but not yet swept: close it the way housekeeping would, then start afresh.
        open.status = "expired";
        emit(
          ctx,
          em,
          "InvitationExpired.v1",
          { invitation_id: open.id, tenant_id: tenantId, kind: "membership" },
          {
            tenant_id: tenantId,
            subject: null,
          },
        );
        await em.flush();
      }
      invitation = em.create(Invitation, {
        id: newId("inv"),
        tenant_id: tenantId,
        kind: "membership",
        email: input.email,
        email_key: key,
        invitee_sub: null,
        role: input.role,
        invited_by: inviter,
        status: "pending",
        created_at: at,
        expires_at: new Date(at.getTime() + INVITATION_TTL_MS),
        responded_at: null,
      });
    }
    // No subject: the invitee may have no account yet, and the event never carries the address.
    emit(
      ctx,
      em,
      "InvitationCreated.v1",
      {
        invitation_id: invitation.id,
        tenant_id: tenantId,
        kind: "membership",
        role: invitation.role,
        expires_at: invitation.expires_at.toISOString(),
      },
      { tenant_id: tenantId, subject: null },
    );
    return toSentInvitation(invitation);
  });
}
