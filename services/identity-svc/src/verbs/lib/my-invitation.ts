import type { Invalidation } from "@flowstate/contracts/internal/identity";
import type { ReceivedInvitation } from "@flowstate/contracts/rest/identity/invitations";
import { DomainError, notFound } from "@flowstate/shared/errors/domain-error";
import { type EntityManager, LockMode } from "@mikro-orm/postgresql";
import { inTransaction, now, type ServiceContext, table } from "../../context.ts";
import { Invitation, Tenant, User } from "../../db/entities.ts";
import { requireUser } from "./guards.ts";

type Row = {
  id: string;
  kind: "membership" | "ownership";
  tenant_id: string;
  tenant_name: string;
  role: "owner" | "admin" | "member";
  status: ReceivedInvitation["status"];
  invited_by: string;
  invited_by_name: string;
  created_at: Date;
  expires_at: Date;
  responded_at: Date | null;
};

const toReceived = (r: Row): ReceivedInvitation => ({
  invitation_id: r.id,
  kind: r.kind,
  tenant_id: r.tenant_id,
  tenant_name: r.tenant_name,
  role: r.role,
  status: r.status,
  invited_by: r.invited_by,
  invited_by_name: r.invited_by_name,
  created_at: new Date(r.created_at).toISOString(),
  expires_at: new Date(r.expires_at).toISOString(),
  responded_at: r.responded_at ? new Date(r.responded_at).toISOString() : null,
});

/** Invitations as their invitee sees them (tenant and inviter names joined), filtered by `where`. */
export async function receivedInvitations(
  ctx: ServiceContext,
  em: EntityManager,
  where: string,
  params: unknown[],
): Promise<ReceivedInvitation[]> {
  const rows = await em.execute<Row[]>(
    `SELECT i.id, i.kind, i.tenant_id, t.name AS tenant_name, i.role, i.status, i.invited_by,
            u.name AS invited_by_name, i.created_at, i.expires_at, i.responded_at
       FROM ${table(ctx, "invitation")} i
       JOIN ${table(ctx, "tenant")} t ON t.id = i.tenant_id
       JOIN ${table(ctx, "app_user")} u ON u.sub = i.invited_by
      WHERE ${where}
      ORDER BY i.created_at DESC, i.id`,
    params,
  );
  return rows.map(toReceived);
}

export interface OpenInvitation {
  invitation: Invitation;
  tenant: Tenant;
  me: User;
}

/**
 * The invitation `id` addressed to the signed-in caller, locked with its tenant for an answer:
 * a membership invitation to the caller's e-mail address, or an ownership transfer to the caller.
 * Someone else's invitation, an unknown id and one whose tenant was deleted are the same 404.
 * 409 INVITATION_NOT_PENDING once answered or cancelled; 410 INVITATION_EXPIRED after seven days.
 *
 * Locks, in this order: the caller's account row FOR UPDATE (what deleteAccount holds across its
 * ownership check, so an acceptance and the caller's own deletion serialise; inTransaction's
 * credential check has usually taken it already), the tenant row, then the invitation: the order
 * inviting takes them in (authorizeTenant locks the tenant first), so an answer and a new
 * invitation to the same tenant never deadlock.
 */
export async function lockOpenInvitation(
  ctx: ServiceContext,
  em: EntityManager,
  id: string,
  sub: string,
): Promise<OpenInvitation> {
  const me = await em.findOne(User, { sub }, { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true });
  if (me?.status !== "active" || me.disabled) {
    throw new DomainError("unauthenticated", "ACCOUNT_INACTIVE", "this account is disabled or deleted");
  }
  const peek = await em.findOne(Invitation, { id });
  if (!peek) throw notFound("invitation");
  const tenant = await em.findOne(Tenant, { id: peek.tenant_id }, { lockMode: LockMode.PESSIMISTIC_WRITE });
  const invitation = await em.findOne(Invitation, { id }, { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true });
  if (!invitation || !tenant) throw notFound("invitation");
  const mine =
    invitation.kind === "membership"
      ? me.email_key !== null && invitation.email_key === me.email_key
      : invitation.invitee_sub === sub;
  if (!mine || tenant.status !== "active") throw notFound("invitation");
  if (invitation.status === "expired" || (invitation.status === "pending" && invitation.expires_at <= now(ctx))) {
    throw new DomainError("gone", "INVITATION_EXPIRED", "this invitation has expired; ask for a new one");
  }
  if (invitation.status !== "pending") {
    throw new DomainError("conflict", "INVITATION_NOT_PENDING", `this invitation is already ${invitation.status}`, {
      extensions: { status: invitation.status },
    });
  }
  return { invitation, tenant, me };
}

/**
 * An answer of the signed-in invitee to invitation `id`: in one transaction, the invitation locked
 * (lockOpenInvitation), `answer` applied, and the invitation as its invitee now sees it. What
 * `answer` returns is pushed to the gateway after the commit.
 */
export async function answerInvitation(
  ctx: ServiceContext,
  id: string,
  answer: (em: EntityManager, invitation: Invitation, sub: string) => Promise<Invalidation[]>,
): Promise<ReceivedInvitation> {
  const { sub } = requireUser(ctx);
  const { view, invalidations } = await inTransaction(ctx, async (em) => {
    const { invitation } = await lockOpenInvitation(ctx, em, id, sub);
    const invalidations = await answer(em, invitation, sub);
    await em.flush();
    return { view: (await receivedInvitations(ctx, em, "i.id = ?", [invitation.id]))[0]!, invalidations };
  });
  ctx.invalidations.push(...invalidations);
  return view;
}
