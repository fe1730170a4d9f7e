import type { TenantRole } from "@flowstate/contracts/ids";
import { DomainError, notFound } from "@flowstate/shared/errors/domain-error";
import { type EntityManager, LockMode } from "@mikro-orm/postgresql";
import type { ServiceContext } from "../context.ts";
import { Membership, Tenant } from "../db/entities.ts";
import { atLeast, insufficientRole } from "./guards.ts";

export interface TenantAccess {
  tenant: Tenant;
  /** The caller's role; for an API key, the role its scope stands for (read → member, write → admin). */
  role: TenantRole;
  /** The acting person: the user, or the admin who created the API key. */
  sub: string;
}

export interface TenantRequirement {
  minRole: TenantRole;
  /** The API key scope that may do this, or false when only a user's token may. */
  apiKey: "read" | "write" | false;
  /** Lock the tenant row (FOR UPDATE): for changes that must serialise with each other. */
  lock?: boolean;
}

/**
 * The domain's own check of who may act on a tenant, inside the verb's transaction. The gateway
 * has checked membership already; this re-reads it from the database (authoritative, and under the
 * transaction's locks), so a stale gateway cache can never authorise a change. A tenant that is
 * deleted, missing or not the caller's answers 404 NOT_FOUND, indistinguishably, and before any
 * 403: whether a tenant exists is not revealed by how the refusal is worded.
 */
export async function authorizeTenant(
  ctx: ServiceContext,
  em: EntityManager,
  tenantId: string,
  need: TenantRequirement,
): Promise<TenantAccess> {
  const lockMode = need.lock ? LockMode.PESSIMISTIC_WRITE : undefined;
  const a = ctx.actor;
  if (a.kind === "api_key") {
    if (a.tenant_id !== tenantId) throw notFound("tenant");
    const tenant = await em.findOne(Tenant, { id: tenantId, status: "active" }, { lockMode });
    if (!tenant) throw notFound("tenant");
    if (need.apiKey === false) {
      throw new DomainError(
        "forbidden",
        "API_KEY_NOT_ALLOWED",
        "this operation needs a user's access token, not an API key",
      );
    }
    if (need.apiKey === "write" && a.scope !== "write") {
      throw new DomainError("forbidden", "INSUFFICIENT_SCOPE", "this operation needs an API key with the write scope");
    }
    return { tenant, role: a.scope === "write" ? "admin" : "member", sub: a.sub };
  }
  if (a.kind !== "user") throw new DomainError("unauthenticated", "UNAUTHENTICATED", "sign in first");
  const tenant = await em.findOne(Tenant, { id: tenantId, status: "active" }, { lockMode });
  if (!tenant) throw notFound("tenant");
  const membership = await em.findOne(Membership, { tenant_id: tenantId, sub: a.sub }, { lockMode });
  if (!membership) throw notFound("tenant");
  if (!atLeast(membership.role, need.minRole)) throw insufficientRole(need.minRole);
  return { tenant, role: membership.role, sub: a.sub };
}
