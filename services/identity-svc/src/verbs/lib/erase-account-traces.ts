import type { EntityManager } from "@mikro-orm/postgresql";
import { LockMode } from "@mikro-orm/postgresql";
import { type ServiceContext, table } from "../../context.ts";
import { Invitation, type User } from "../../db/entities.ts";
import { closeInvitation } from "./invitation-lifecycle.ts";

/**
 * What an account deletion erases beyond the user row, memberships, preferences and access (the
 * caller, deleteAccount, holds the user row FOR UPDATE and commits; docs/erasure.md lists every
 * table). Call it before the user's `email_key` is cleared: it finds the invitations sent to the
 * address by it.
 *
 * - Invitations: every open one the user sent is cancelled (the inviter's say ends with the
 *   account; before, a pending invitation of a deleted admin could still be accepted), and every
 *   open one to the user (to the address, or an ownership offer to the `sub`). Every invitation that
 *   was ever sent to the address, open or closed, loses the address: the row keeps ids, role and
 *   dates for the tenant's history.
 * - OAuth: the consent records (`oauth_grant`: client name, scope, resource, tenant), unused codes
 *   and sign-in interactions of the user are deleted; their token families were revoked with the
 *   sessions, and the refresh tokens hold hashes only.
 * - Sign-in devices: the user's device-token hashes and their backoff are deleted.
 *
 * Lock order as accept/decline take it on the invitee's side: the invitation rows after the
 * user's; an answer in progress holds the invitation first and is then seen done (accepted or
 * declined), or waits and finds it cancelled.
 */
export async function eraseAccountTraces(ctx: ServiceContext, em: EntityManager, user: User): Promise<void> {
  const { sub, email_key } = user;
  const lock = { lockMode: LockMode.PESSIMISTIC_WRITE } as const;
  const addressed = email_key ? await em.find(Invitation, { email_key }, lock) : [];
  const open = await em.find(Invitation, { status: "pending", $or: [{ invited_by: sub }, { invitee_sub: sub }] }, lock);
  for (const invitation of new Set([...addressed, ...open])) {
    if (invitation.status === "pending") closeInvitation(ctx, em, invitation, "cancelled");
  }
  for (const invitation of addressed) Object.assign(invitation, { email: null, email_key: null });
  for (const name of ["oauth_grant", "oauth_code", "oauth_interaction", "sign_in_device"]) {
    await em.execute(`DELETE FROM ${table(ctx, name)} WHERE sub = ?`, [sub]);
  }
}
