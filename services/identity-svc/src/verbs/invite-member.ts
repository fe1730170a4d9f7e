import type { SentInvitation } from "@flowstate/contracts/rest/identity/invitations";
import type { AddMemberRequest } from "@flowstate/contracts/rest/identity/members";
import { DomainError } from "@flowstate/shared/errors/domain-error";
import { LockMode } from "@mikro-orm/postgresql";
import { inTransaction, now, type ServiceContext, table } from "../context.ts";
import { Invitation } from "../db/entities.ts";
import { authorizeTenant } from "./lib/authorize-tenant.ts";
import { closeInvitation, openInvitation, renewInvitation } from "./lib/invitation-lifecycle.ts";
import { toSentInvitation } from "./lib/invitation-view.ts";
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
    const { sub: inviter } = await authorizeTenant(ctx, em, tenantId, { minRole: "admin", apiKey: false });
    const members = await em.execute<{ n: number }[]>(
      `SELECT count(*)::int AS n FROM ${table(ctx, "membership")} m
         JOIN ${table(ctx, "app_user")} u ON u.sub = m.sub
        WHERE m.tenant_id = ? AND u.email_key = ?`,
      [tenantId, key],
    );
    if (members[0]!.n > 0) {
      throw new DomainError("conflict", "ALREADY_MEMBER", "this person is already a member of the tenant");
    }
    const open = await em.findOne(
      Invitation,
      { tenant_id: tenantId, email_key: key, kind: "membership", status: "pending" },
      { lockMode: LockMode.PESSIMISTIC_WRITE },
    );
    if (open && open.expires_at > now(ctx)) {
      renewInvitation(ctx, em, open, { email: input.email, role: input.role, invitedBy: inviter });
      return toSentInvitation(open);
    }
    if (open) {
      // Past its date but not yet swept: close it the way housekeeping would, then start afresh.
      closeInvitation(ctx, em, open, "expired");
      await em.flush();
    }
    const invitation = openInvitation(ctx, em, {
      tenantId,
      kind: "membership",
      email: { address: input.email, key },
      inviteeSub: null,
      role: input.role,
      invitedBy: inviter,
    });
    return toSentInvitation(invitation);
  });
}
