import { decideTenantAccess, type TenantNeed } from "@flowstate/contracts/auth/tenant-access";
import type { TenantRole } from "@flowstate/contracts/ids";
import type { Tenant as TenantView } from "@flowstate/contracts/rest/identity/tenants";
import { tenantRefusal } from "@flowstate/shared/auth/tenant-refusal";
import { DomainError, notFound } from "@flowstate/shared/errors/domain-error";
import { type EntityManager, LockMode } from "@mikro-orm/postgresql";
import type { ServiceContext } from "../../context.ts";
import { Membership, Tenant } from "../../db/entities.ts";
import { table } from "../../sql-table.ts";
import { tenantView } from "./tenant-view.ts";

export interface TenantAccess {
  tenant: Tenant;
  /** The owner's sub, read under the same locks (the tenant as callers see it names its owner). */
  ownerSub: string;
  /** The caller's role; for an API key, the role it acts with (`keyRole`: its scope's, capped by its creator's). */
  role: TenantRole;
  /** The acting person: the user, or the admin who created the API key. */
  sub: string;
}

/**
 * The domain's own check of who may change a tenant, inside the verb's transaction, with the
 * tenant row and the caller's membership locked (FOR UPDATE): changes to one tenant serialise with
 * each other. The gateway has checked membership already; this re-reads it from the database
 * (authoritative, and under the transaction's locks), so a stale gateway cache can never authorise
 * a change. A tenant that is deleted, missing or not the caller's answers 404 NOT_FOUND,
 * indistinguishably, and before any 403: whether a tenant exists is not revealed by how the
 * refusal is worded. The rule is the platform's one (`decideTenantAccess`,
 * contracts/src/auth/tenant-access.ts), the gateway's too.
 */
export async function authorizeTenant(
  ctx: ServiceContext,
  em: EntityManager,
  tenantId: string,
  need: TenantNeed,
): Promise<TenantAccess> {
  const a = tenantActor(ctx, tenantId);
  // One statement for the usual case, a member acting on a live tenant: the tenant row, the
  // caller's membership and the owner's, locked in that order (the order of the FROM list, which is
  // the order every verb here locks them; each verb that changes a membership locks the tenant
  // first). Locked rows are re-read at their latest version after a wait, so a role changed
  // meanwhile is seen. No row (no such tenant, not a member, or the owner changed while waiting):
  // the separate reads below tell the cases apart.
  const [row] = await em.execute<(TenantColumns & { role: TenantRole; owner_sub: string })[]>(
    `SELECT t.*, m.role, o.sub AS owner_sub
       FROM ${table(ctx, "tenant")} t
       JOIN ${table(ctx, "membership")} m ON m.tenant_id = t.id AND m.sub = ?
       JOIN ${table(ctx, "membership")} o ON o.tenant_id = t.id AND o.role = 'owner'
      WHERE t.id = ? AND t.status = 'active'
        FOR UPDATE OF t, m, o`,
    [a.sub, tenantId],
  );
  if (row) {
    const { role, owner_sub, ...columns } = row;
    return { tenant: em.map(Tenant, columns), ownerSub: owner_sub, role: decide(need, a, role), sub: a.sub };
  }
  const lockMode = LockMode.PESSIMISTIC_WRITE;
  const tenant = await em.findOne(Tenant, { id: tenantId, status: "active" }, { lockMode });
  if (!tenant) throw notFound("tenant");
  // For an API key, its creator's membership: the key acts with at most the creator's current role.
  const membership = await em.findOne(Membership, { tenant_id: tenantId, sub: a.sub }, { lockMode });
  const role = decide(need, a, membership?.role ?? null);
  const owner = await em.findOne(Membership, { tenant_id: tenantId, role: "owner" }, { lockMode });
  return { tenant, ownerSub: owner!.sub, role, sub: a.sub };
}

type TenantColumns = { id: string; name: string; status: "active" | "deleted"; created_at: Date } & Record<
  string,
  unknown
>;

/**
 * The same check for a read, or a change that needs no lock on the tenant: one query for the
 * tenant and the caller's membership together (tenantView: outside a transaction a prepared
 * statement whose concurrent calls share round trips, inside one a read in it). Returns the
 * tenant as the caller sees it, with the role the caller acts with.
 */
export async function checkTenantAccess(
  ctx: ServiceContext,
  /** The call's unit of work, if it has one: inside a transaction the read joins it. */
  em: EntityManager | undefined,
  tenantId: string,
  need: TenantNeed,
): Promise<{ tenant: TenantView; role: TenantRole; sub: string }> {
  const a = tenantActor(ctx, tenantId);
  const view = await tenantView(ctx, em, tenantId, a.sub);
  if (!view) throw notFound("tenant");
  const role = decide(need, a, view.memberRole);
  return { tenant: role === view.tenant.role ? view.tenant : { ...view.tenant, role }, role, sub: a.sub };
}

export type TenantActor = Extract<ServiceContext["actor"], { kind: "user" | "api_key" }>;

/** The caller, if it may act on a tenant at all: a user, or an API key of this tenant (another's: 404). */
export function tenantActor(ctx: ServiceContext, tenantId: string): TenantActor {
  const a = ctx.actor;
  if (a.kind !== "user" && a.kind !== "api_key") {
    throw new DomainError("unauthenticated", "UNAUTHENTICATED", "sign in first");
  }
  if (a.kind === "api_key" && a.tenant_id !== tenantId) throw notFound("tenant");
  return a;
}

/** The platform's rule on the member's role (null: not a member); a refusal is thrown. */
export function decide(need: TenantNeed, a: TenantActor, role: TenantRole | null): TenantRole {
  const decision = decideTenantAccess(
    need,
    a.kind === "user" ? { kind: "user", role } : { kind: "api_key", scope: a.scope, creatorRole: role },
  );
  if (!decision.ok) throw tenantRefusal(decision.code, need.minRole);
  return decision.role;
}
