import { TenantId, type TenantRole } from "@flowstate/contracts/ids";
import type { TenantContext } from "@flowstate/contracts/internal/identity";
import type { RouteSpec } from "@flowstate/contracts/rest/route";
import { DomainError, notFound } from "@flowstate/shared/errors/domain-error";
import type { AccessState } from "./access-state.ts";
import type { CallerIdentity } from "./authenticate.ts";

const RANK: Record<TenantRole, number> = { member: 1, admin: 2, owner: 3 };
const tenantIdPattern = TenantId;

/**
 * `/v1/tenants/{id}/**`: is the caller a member, with a role high enough for the route? A tenant
 * the caller cannot see, a malformed id and another tenant's API key all get the one 404 a missing
 * tenant gets, built by the same function, so the answer differs only in request_id: existence of
 * a tenant is not disclosed. Only a member learns that their role (403) or key scope (403) is short.
 *
 * For an API key the role is its creator's current role in the key's tenant: a key never does
 * more than the admin who made it still may.
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
  if (!tenantIdPattern.safeParse(tenantId).success) throw notFound("tenant");
  if (identity.kind === "api_key") {
    if (identity.tenant_id !== tenantId) throw notFound("tenant");
    if (!route.apiKey)
      throw new DomainError(
        "forbidden",
        "API_KEY_NOT_ALLOWED",
        "this route needs a user's access token, not an API key",
      );
    if (route.apiKey === "write" && identity.scope !== "write") {
      throw new DomainError("forbidden", "INSUFFICIENT_SCOPE", "this route needs an API key with the write scope");
    }
  }
  const key = `${tenantId} ${identity.sub}`;
  let role = state.memberships.peek(key);
  if (role === undefined) role = await state.memberships.load(key, undefined);
  if (role === null) throw notFound("tenant");
  if (RANK[role] < RANK[route.minRole ?? "member"]) {
    throw new DomainError(
      "forbidden",
      "INSUFFICIENT_ROLE",
      `this route needs the ${route.minRole} role or higher in the tenant`,
    );
  }
  return { tenant_id: tenantId, role };
}
