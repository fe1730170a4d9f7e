import type { RouteSpec } from "@flowstate/contracts/rest/route";
import { DomainError, notFound } from "@flowstate/shared/errors/domain-error";
import type { AccessState } from "./access-state.ts";

/**
 * The one place a route's `feature` is enforced (contracts' RouteSpec): 403 FEATURE_DISABLED while
 * the tenant's flag is off, naming the flag and where to turn it on. Runs after the membership and
 * role checks, so only members learn about the tenant's flags. Services behind the gateway (and
 * mcp-gateway, which calls this with the same AccessState) never repeat it.
 *
 * Flags are cached per tenant for `FEATURE_CACHE_TTL_MS` (1 s) and dropped at once by a flag change:
 * the `features` invalidation identity-svc answers with (this instance) and pushes to every door
 * instance with a live lease before answering (ADR 0011); an instance without a valid lease trusts
 * no cached fact. So a change is in force everywhere when its call answers.
 *
 * @example
 * await requireFeature(route, tenant.tenant_id, state);
 */
export async function requireFeature(route: RouteSpec, tenantId: string, state: AccessState): Promise<void> {
  const flag = route.feature;
  if (flag === undefined) return;
  let flags = state.features.peek(tenantId);
  if (flags === undefined) flags = await state.features.load(tenantId, undefined);
  if (flags === null) throw notFound("tenant");
  if (flags[flag] === true) return;
  throw new DomainError(
    "forbidden",
    "FEATURE_DISABLED",
    `the ${flag} feature is off for this tenant; an admin can turn it on in Settings, Features (PUT /v1/tenants/{id}/features)`,
    { extensions: { feature: flag, enable_at: "Settings, Features" } },
  );
}
