import { newId } from "@flowstate/shared/ids/new-id";
import type { EntityManager } from "@mikro-orm/postgresql";
import { emit, now, type ServiceContext } from "../../context.ts";
import { Invitation } from "../../db/entities.ts";
import { INVITATION_TTL_MS } from "./invitation-view.ts";

/**
 * Every change of an invitation's state, with its event: one place decides what each event
 * carries and whom it names as subject. The caller holds the locks and commits.
 */

export interface NewInvitation {
  tenantId: string;
  kind: Invitation["kind"];
  /** A membership invitation is addressed to an e-mail address (kept with its lower-cased key) ... */
  email: { address: string; key: string } | null;
  /** ... an ownership transfer to a member. */
  inviteeSub: string | null;
  role: Invitation["role"];
  invitedBy: string;
}

/** Opens an invitation for seven days and announces it (InvitationCreated; never the address). */
export function openInvitation(ctx: ServiceContext, em: EntityManager, n: NewInvitation): Invitation {
  const at = now(ctx);
  const invitation = em.create(Invitation, {
    id: newId("inv"),
    tenant_id: n.tenantId,
    kind: n.kind,
    email: n.email?.address ?? null,
    email_key: n.email?.key ?? null,
    invitee_sub: n.inviteeSub,
    role: n.role,
    invited_by: n.invitedBy,
    status: "pending",
    created_at: at,
    expires_at: new Date(at.getTime() + INVITATION_TTL_MS),
    responded_at: null,
  });
  announceCreated(ctx, em, invitation);
  return invitation;
}

/** Refreshes an open invitation (new role, inviter and seven days, same id) and announces it again. */
export function renewInvitation(
  ctx: ServiceContext,
  em: EntityManager,
  invitation: Invitation,
  changes: { email: string; role: Invitation["role"]; invitedBy: string },
): void {
  const at = now(ctx);
  Object.assign(invitation, {
    email: changes.email,
    role: changes.role,
    invited_by: changes.invitedBy,
    created_at: at,
  });
  invitation.expires_at = new Date(at.getTime() + INVITATION_TTL_MS);
  announceCreated(ctx, em, invitation);
}

// No subject for a membership invitation: the invitee may have no account yet, and the event never carries the address.
function announceCreated(ctx: ServiceContext, em: EntityManager, invitation: Invitation): void {
  const { id, tenant_id, kind, role, expires_at } = invitation;
  emit(
    ctx,
    em,
    "InvitationCreated.v1",
    { invitation_id: id, tenant_id, kind, role, expires_at: expires_at.toISOString() },
    { tenant_id, subject: invitation.invitee_sub ?? null },
  );
}

const closedEvent = {
  expired: "InvitationExpired.v1",
  cancelled: "InvitationCancelled.v1",
  declined: "InvitationDeclined.v1",
} as const;

/**
 * Closes an open invitation without its invitee's yes: past its date or replaced (the subject is
 * the invitee if known), or declined by the invitee (`answeredBy`, the subject).
 */
export function closeInvitation(
  ctx: ServiceContext,
  em: EntityManager,
  invitation: Invitation,
  status: keyof typeof closedEvent,
  answeredBy?: string,
): void {
  invitation.status = status;
  if (answeredBy) invitation.responded_at = now(ctx);
  const { id, tenant_id, kind } = invitation;
  emit(
    ctx,
    em,
    closedEvent[status],
    { invitation_id: id, tenant_id, kind },
    { tenant_id, subject: answeredBy ?? invitation.invitee_sub ?? null },
  );
}

/** The invitee's yes; what it grants (membership, ownership) is the caller's part. */
export function recordAcceptance(ctx: ServiceContext, em: EntityManager, invitation: Invitation, sub: string): void {
  invitation.status = "accepted";
  invitation.responded_at = now(ctx);
  const { id, tenant_id, kind, role } = invitation;
  emit(ctx, em, "InvitationAccepted.v1", { invitation_id: id, tenant_id, kind, role }, { tenant_id, subject: sub });
}
