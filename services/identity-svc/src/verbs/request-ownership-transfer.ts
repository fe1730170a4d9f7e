import type { SentInvitation } from "@flowstate/contracts/rest/identity/invitations";
import type { OwnershipTransferRequest } from "@flowstate/contracts/rest/identity/tenants";
import { DomainError } from "@flowstate/shared/errors/domain-error";
import { newId } from "@flowstate/shared/ids/new-id";
import { emit, inTransaction, now, type ServiceContext, table } from "../context.ts";
import { Invitation } from "../db/entities.ts";
import { authorizeTenant } from "./lib/authorize-tenant.ts";
import { INVITATION_TTL_MS, toSentInvitation } from "./lib/invitation-view.ts";

export const notAMember = () =>
  new DomainError("unprocessable", "NOT_A_MEMBER", "the new owner must be an active member of the tenant");

/**
 * The owner asks a member to take the tenant over. Nothing changes until that member accepts
 * (acceptInvitation): nobody can make another person an owner, and so nobody can block another
 * person's account deletion (decisions.md, Consent). One open transfer per tenant: asking again
 * cancels the previous one. Answers 202 with the pending transfer.
 */
export async function requestOwnershipTransfer({
  ctx,
  tenantId,
  input,
}: {
  ctx: ServiceContext;
  tenantId: string;
  input: OwnershipTransferRequest;
}): Promise<SentInvitation> {
  const to = input.new_owner_sub;
  return inTransaction(ctx, async (em) => {
    const { sub } = await authorizeTenant(ctx, em, tenantId, { minRole: "owner", apiKey: false, lock: true });
    if (to === sub) throw new DomainError("unprocessable", "ALREADY_OWNER", "you already own this tenant");
    const member = await em.execute<{ n: number }[]>(
      `SELECT count(*)::int AS n FROM ${table(ctx, "membership")} m
         JOIN ${table(ctx, "app_user")} u ON u.sub = m.sub AND u.status = 'active' AND NOT u.disabled
        WHERE m.tenant_id = ? AND m.sub = ?`,
      [tenantId, to],
    );
    if (member[0]!.n === 0) throw notAMember();
    const at = now(ctx);
    const meta = { tenant_id: tenantId };
    for (const previous of await em.find(Invitation, { tenant_id: tenantId, kind: "ownership", status: "pending" })) {
      previous.status = previous.expires_at > at ? "cancelled" : "expired";
      const data = { invitation_id: previous.id, tenant_id: tenantId, kind: "ownership" as const };
      const subject = { ...meta, subject: previous.invitee_sub ?? null };
      if (previous.status === "cancelled") emit(ctx, em, "InvitationCancelled.v1", data, subject);
      else emit(ctx, em, "InvitationExpired.v1", data, subject);
    }
    await em.flush(); // the closed one leaves the one-open-transfer index before the new one enters
    const invitation = em.create(Invitation, {
      id: newId("inv"),
      tenant_id: tenantId,
      kind: "ownership",
      email: null,
      email_key: null,
      invitee_sub: to,
      role: "owner",
      invited_by: sub,
      status: "pending",
      created_at: at,
      expires_at: new Date(at.getTime() + INVITATION_TTL_MS),
      responded_at: null,
    });
    emit(
      ctx,
      em,
      "InvitationCreated.v1",
      {
        invitation_id: invitation.id,
        tenant_id: tenantId,
        kind: "ownership",
        role: "owner",
        expires_at: invitation.expires_at.toISOString(),
      },
      { ...meta, subject: to },
    );
    return toSentInvitation(invitation);
  });
}
