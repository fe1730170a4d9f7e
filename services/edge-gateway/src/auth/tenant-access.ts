import { decideTenantAccess } from "@flowstate/contracts/auth/tenant-access";
import { TenantId, type TenantRole } from "@flowstate/contracts/ids";
import type { TenantContext } from "@flowstate/contracts/internal/identity";
import type { RouteSpec } from "@flowstate/contracts/rest/route";
import { tenantRefusal } from "@flowstate/shared/auth/tenant-refusal";
import { notFound } from "@flowstate/shared/errors/domain-error";
import type { AccessState } from "./access-state.ts";
import type { CallerIdentity } from "./authenticate.ts";

/**
 * `/v1/tenants/{id}/**`: may this caller call this route, and with which role? The rule is the
 * platform's one (`decideTenantAccess`, contracts/src/auth/tenant-access.ts), fed with the
 * caller's membership (for an API key, its creator's current one), cached from identity-svc. A
 * tenant the caller cannot see, a malformed id and another tenant's API key all get the one 404 a
 * missing tenant gets, so the answer differs only in request_id: existence of a tenant is not
 * disclosed. Only a member learns that their role (403) or key scope (403) is short.
 *
 * @example
 * const tenant = await authorizeTenant(route, c.req.param("id"), identity, state);
 */
export async function authorizeTenant(
  route: RouteSpec,
  tenantId: string,
  identity: CallerIdentity,
  state: AccessState,
): Promise<TenantContext> {
  if (!TenantId.safeParse(tenantId).success) throw notFound("tenant");
  if (identity.kind === "api_key" && identity.tenant_id !== tenantId) throw notFound("tenant");
  const role = await memberRoleOf(state, tenantId, identity.sub);
  const minRole = route.minRole ?? "member";
  const decision = decideTenantAccess(
    { minRole, apiKey: route.apiKey },
    identity.kind === "user" ? { kind: "user", role } : { kind: "api_key", scope: identity.scope, creatorRole: role },
  );
  if (!decision.ok) throw tenantRefusal(decision.code, minRole);
  return { tenant_id: tenantId, role: decision.role };
}

/** A person's role in a tenant from the cached membership facts (null: not a member, or no such live tenant). */
export async function memberRoleOf(state: AccessState, tenantId: string, sub: string): Promise<TenantRole | null> {
  const key = `${tenantId} ${sub}`;
  const role = state.memberships.peek(key);
  return role === undefined ? state.memberships.load(key, undefined) : role;
}
