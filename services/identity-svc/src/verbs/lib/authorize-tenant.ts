import { decideTenantAccess } from "@flowstate/contracts/auth/tenant-access";
import type { TenantRole } from "@flowstate/contracts/ids";
import { tenantRefusal } from "@flowstate/shared/auth/tenant-refusal";
import { DomainError, notFound } from "@flowstate/shared/errors/domain-error";
import { type EntityManager, LockMode } from "@mikro-orm/postgresql";
import type { ServiceContext } from "../../context.ts";
import { Membership, Tenant } from "../../db/entities.ts";

export interface TenantAccess {
  tenant: Tenant;
  /** The caller's role; for an API key, the role it acts with (`keyRole`: its scope's, capped by its creator's). */
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
 * 403: whether a tenant exists is not revealed by how the refusal is worded. The rule is the
 * platform's one (`decideTenantAccess`, contracts/src/auth/tenant-access.ts), the gateway's too.
 */
export async function authorizeTenant(
  ctx: ServiceContext,
  em: EntityManager,
  tenantId: string,
  need: TenantRequirement,
): Promise<TenantAccess> {
  const lockMode = need.lock ? LockMode.PESSIMISTIC_WRITE : undefined;
  const a = ctx.actor;
  if (a.kind !== "user" && a.kind !== "api_key") {
    throw new DomainError("unauthenticated", "UNAUTHENTICATED", "sign in first");
  }
  if (a.kind === "api_key" && a.tenant_id !== tenantId) throw notFound("tenant");
  const tenant = await em.findOne(Tenant, { id: tenantId, status: "active" }, { lockMode });
  if (!tenant) throw notFound("tenant");
  // For an API key, its creator's membership: the key acts with at most the creator's current role.
  const membership = await em.findOne(Membership, { tenant_id: tenantId, sub: a.sub }, { lockMode });
  const role = membership?.role ?? null;
  const decision = decideTenantAccess(
    need,
    a.kind === "user" ? { kind: "user", role } : { kind: "api_key", scope: a.scope, creatorRole: role },
  );
  if (!decision.ok) throw tenantRefusal(decision.code, need.minRole);
  return { tenant, role: decision.role, sub: a.sub };
}
