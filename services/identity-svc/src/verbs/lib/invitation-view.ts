import { INVITATION_TTL_DAYS, type SentInvitation } from "@flowstate/contracts/rest/identity/invitations";
import type { Invitation } from "../../db/entities.ts";

export const INVITATION_TTL_MS = INVITATION_TTL_DAYS * 24 * 3600_000;

/** An invitation as the tenant's side sees it (the answer to inviting or asking for a transfer). */
export const toSentInvitation = (i: Invitation): SentInvitation => ({
  invitation_id: i.id,
  kind: i.kind,
  tenant_id: i.tenant_id,
  email: i.email ?? null,
  invitee_sub: i.invitee_sub ?? null,
  role: i.role,
  status: i.status,
  invited_by: i.invited_by,
  created_at: i.created_at.toISOString(),
  expires_at: i.expires_at.toISOString(),
});
