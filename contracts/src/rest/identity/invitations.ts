import { z } from "zod";
import { InvitationId, Sub, TenantId, TenantRole } from "../../ids.ts";
import { Email, Timestamp } from "./common.ts";

/**
 * Consent (decisions.md): nobody becomes a member or an owner of a tenant without accepting.
 * `membership`: an admin invited an e-mail address (`POST /v1/tenants/{id}/members`);
 * `ownership`: the owner asked a member to take the tenant over (`POST .../ownership-transfer`).
 * Both are answered by the invitee (`/v1/users/me/invitations/{invitation_id}/accept|decline`)
 * within 7 days, after which they expire.
 */
export const InvitationKind = z.enum(["membership", "ownership"]);
export type InvitationKind = z.infer<typeof InvitationKind>;

/** `cancelled`: replaced by a newer ownership transfer, or the inviter no longer owns the tenant. */
export const InvitationStatus = z.enum(["pending", "accepted", "declined", "expired", "cancelled"]);
export type InvitationStatus = z.infer<typeof InvitationStatus>;

/** How long an invitation stays open. */
export const INVITATION_TTL_DAYS = 7;

/**
 * An invitation as the tenant's side sees it, in the answer to the request that made it. A
 * membership invitation carries the address as given and never says whether it has an account
 * (the answer is the same either way); an ownership transfer names the member asked.
 */
export const SentInvitation = z.object({
  invitation_id: InvitationId,
  kind: InvitationKind,
  tenant_id: TenantId,
  email: Email.nullable(),
  invitee_sub: Sub.nullable(),
  role: TenantRole,
  status: InvitationStatus,
  invited_by: Sub,
  created_at: Timestamp,
  expires_at: Timestamp,
});
export type SentInvitation = z.infer<typeof SentInvitation>;

/** An invitation as its invitee sees it: which tenant, which role, who asked. */
export const ReceivedInvitation = z.object({
  invitation_id: InvitationId,
  kind: InvitationKind,
  tenant_id: TenantId,
  tenant_name: z.string(),
  role: TenantRole,
  status: InvitationStatus,
  invited_by: Sub,
  invited_by_name: z.string(),
  created_at: Timestamp,
  expires_at: Timestamp,
  responded_at: Timestamp.nullable(),
});
export type ReceivedInvitation = z.infer<typeof ReceivedInvitation>;

/** The caller's pending, unexpired invitations, newest first. */
export const ReceivedInvitationList = z.object({ invitations: z.array(ReceivedInvitation) });
export type ReceivedInvitationList = z.infer<typeof ReceivedInvitationList>;

export const InvitationPath = z.object({ invitation_id: InvitationId });
export type InvitationPath = z.infer<typeof InvitationPath>;
