import type { SentInvitation } from "@flowstate/contracts/rest/identity/invitations";
import type { OwnershipTransferRequest } from "@flowstate/contracts/rest/identity/tenants";
import { DomainError } from "@flowstate/shared/errors/domain-error";
import { inTransaction, now, type ServiceContext, table } from "../context.ts";
import { Invitation } from "../db/entities.ts";
import { authorizeTenant } from "./lib/authorize-tenant.ts";
import { closeInvitation, openInvitation } from "./lib/invitation-lifecycle.ts";
import { toSentInvitation } from "./lib/invitation-view.ts";

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
    // The invitee's account row first, as every write takes account rows before the tenant's: the
    // invitation's deferred foreign key would otherwise take it at COMMIT, after the tenant, while
    // the invitee's own tenant write (or their answer to the pending transfer) holds it and waits
    // for the tenant: a deadlock, 500 for one of the two (request-ownership-transfer.race.test.ts).
    // KEY SHARE is what that check takes; it also keeps the account from going before the commit.
    await em.execute(`SELECT 1 FROM ${table(ctx, "app_user")} WHERE sub = ? FOR KEY SHARE`, [to]);
    const { sub } = await authorizeTenant(ctx, em, tenantId, { minRole: "owner", apiKey: false });
    if (to === sub) throw new DomainError("unprocessable", "ALREADY_OWNER", "you already own this tenant");
    const member = await em.execute<{ n: number }[]>(
      `SELECT count(*)::int AS n FROM ${table(ctx, "membership")} m
         JOIN ${table(ctx, "app_user")} u ON u.sub = m.sub AND u.status = 'active' AND NOT u.disabled
        WHERE m.tenant_id = ? AND m.sub = ?`,
      [tenantId, to],
    );
    if (member[0]!.n === 0) throw notAMember();
    const at = now(ctx);
    for (const previous of await em.find(Invitation, { tenant_id: tenantId, kind: "ownership", status: "pending" })) {
      closeInvitation(ctx, em, previous, previous.expires_at > at ? "cancelled" : "expired");
    }
    await em.flush(); // the closed one leaves the one-open-transfer index before the new one enters
    const invitation = openInvitation(ctx, em, {
      tenantId,
      kind: "ownership",
      email: null,
      inviteeSub: to,
      role: "owner",
      invitedBy: sub,
    });
    return toSentInvitation(invitation);
  });
}
