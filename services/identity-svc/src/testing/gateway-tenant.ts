import { SCOPE_CEILING } from "@flowstate/contracts/auth/tenant-access";
import { TenantId } from "@flowstate/contracts/ids";
import type { TenantContext, VerifiedIdentity } from "@flowstate/contracts/internal/identity";
import { routes } from "@flowstate/contracts/rest/routes";
import { ServiceContext } from "../context.ts";
import type { IdentityDeps } from "../deps.ts";
import { membershipState } from "../verbs/membership-state.ts";

const tenantRoutes = routes
  .filter((r) => r.service === "identity-svc" && r.auth === "tenant")
  .map((r) => ({ method: r.method, pattern: new RegExp(`^${r.path.replace(/\{[^}]+\}/g, "([^/?]+)")}(\\?|$)`) }));

/**
 * What the gateway signs with a request to one of identity-svc's tenant routes (edge-gateway
 * `auth/tenant-access.ts`), so the harness's tests sign like the gateway without one: a user's role
 * in the path's tenant, read from identity-svc's own rows as the gateway reads them
 * (`internal.memberships.get`), none for a tenant the user is not in (the seam then answers 404 as
 * the gateway would). An API key of the path's tenant gets the role of its scope, as a gateway that
 * still holds its creator as an admin signs it: whether the creator still is one is what
 * identity-svc's verbs re-read under lock (authorize-tenant.ts), and what the tests of a demoted
 * creator's key check, here and in services/edge-gateway/test/api-key-creator-role.test.ts.
 */
export function gatewayTenant(deps: IdentityDeps) {
  const system = new ServiceContext(deps, { actor: { kind: "system" } });
  return async (method: string, target: string, as: VerifiedIdentity): Promise<TenantContext | undefined> => {
    if (as.kind !== "user" && as.kind !== "api_key") return undefined;
    const match = tenantRoutes.find((r) => r.method === method && r.pattern.test(target));
    const tenantId = match?.pattern.exec(target)?.[1];
    // As the gateway: a malformed id is a tenant nobody is in (the route then answers its own 4xx).
    if (!tenantId || !TenantId.safeParse(tenantId).success) return undefined;
    if (as.kind === "api_key") return { tenant_id: tenantId, role: SCOPE_CEILING[as.scope] };
    const role = await membershipState({ ctx: system, tenantId, sub: as.sub }).then(
      (m) => m.role,
      () => null,
    );
    return role ? { tenant_id: tenantId, role } : undefined;
  };
}
