import { atLeast } from "@flowstate/contracts/auth/tenant-access";
import type { TenantRole } from "@flowstate/contracts/ids";
import type { RouteSpec } from "@flowstate/contracts/rest/route";
import { assertionVerifier } from "@flowstate/shared/auth/assertion-cache";
import { IDENTITY_HEADER } from "@flowstate/shared/auth/identity-assertion";
import { requestBinding } from "@flowstate/shared/auth/request-binding";
import { DomainError } from "@flowstate/shared/errors/domain-error";
import { principalForChannel } from "@flowstate/shared/marketplace/principals";
import type { MiddlewareHandler } from "hono";
import type { Caller } from "../context.ts";
import type { OffersDeps } from "../deps.ts";
import type { OffersEnv } from "./env.ts";

const unauthenticated = () =>
  new DomainError("unauthenticated", "UNAUTHENTICATED", "this service is reached through the gateway only");

/**
 * Deny by default: every route of offers-svc is a tenant route, so every request must carry a
 * gateway assertion that is genuine, fresh, bound to this request (method, target with its query,
 * body hash), names the caller's channel, names a user or an
 * API key, and carries the tenant context the gateway resolved; else 401 whatever the path. The
 * route's own rule (minimum role, API key scope) is checked again by `requireAccess`.
 */
export function offersContext(deps: OffersDeps): MiddlewareHandler<OffersEnv> {
  const verify = assertionVerifier(deps.internalAuthSecret);
  return async function offersContext(c, next) {
    const verified = verify(await requestBinding(c), c.req.header(IDENTITY_HEADER));
    const assertion = verified?.assertion;
    // The gateway names the caller's door (rest, mcp): it decides the principal that reaches AWS.
    if (!assertion?.tenant || !assertion.channel) throw unauthenticated();
    const { identity, tenant } = assertion;
    if (identity.kind !== "user" && identity.kind !== "api_key") throw unauthenticated();
    c.set("ctx", {
      tenantId: tenant.tenant_id,
      caller: identity as Caller,
      role: tenant.role,
      principal: principalForChannel(assertion.channel),
      requestId: c.get("requestId"),
      trace: c.req.header("traceparent"),
      logger: c.get("logger"),
      deps,
    });
    await next();
  };
}

/**
 * The registry's rule for `route`, re-checked here as a second line behind the gateway (same
 * codes as edge-gateway's tenant-access.ts): the caller's role in the tenant, and for an API key
 * whether the route takes keys and the scope it needs.
 */
export function requireAccess(ctx: { role: TenantRole; caller: Caller }, route: RouteSpec): void {
  if (ctx.caller.kind === "api_key") {
    if (!route.apiKey)
      throw new DomainError(
        "forbidden",
        "API_KEY_NOT_ALLOWED",
        "this route needs a user's access token, not an API key",
      );
    if (route.apiKey === "write" && ctx.caller.scope !== "write")
      throw new DomainError("forbidden", "INSUFFICIENT_SCOPE", "this route needs an API key with the write scope");
  }
  // The role is the one the gateway decided (for a key: its scope's ceiling capped by its creator's
  // current role, contracts/src/auth/tenant-access.ts), so users and keys are ranked alike.
  if (!atLeast(ctx.role, route.minRole ?? "member"))
    throw new DomainError(
      "forbidden",
      "INSUFFICIENT_ROLE",
      `this route needs the ${route.minRole} role or higher in the tenant`,
    );
}
