import { assertionVerifier } from "@flowstate/shared/auth/assertion-cache";
import { IDENTITY_HEADER } from "@flowstate/shared/auth/identity-assertion";
import { requestBinding } from "@flowstate/shared/auth/request-binding";
import { DomainError, notFound } from "@flowstate/shared/errors/domain-error";
import type { MiddlewareHandler } from "hono";
import type { PartnerDeps } from "../deps.ts";
import type { PartnerEnv } from "./env.ts";

/**
 * Deny by default: every request needs the gateway's signed assertion (else 401, whatever the path);
 * partner-svc has no public and no internal route. The gateway resolved the caller's membership of
 * the path's tenant; a request whose path names another tenant than the assertion answers 404, like
 * a tenant that does not exist.
 */
export function gatewayOnly(deps: PartnerDeps): MiddlewareHandler<PartnerEnv> {
  const verify = assertionVerifier(deps.internalAuthSecret);
  return async function gatewayOnly(c, next) {
    const verified = verify(await requestBinding(c), c.req.header(IDENTITY_HEADER));
    const assertion = verified?.assertion;
    if (!assertion || assertion.identity.kind === "service") {
      throw new DomainError("unauthenticated", "UNAUTHENTICATED", "this service is reached through the gateway only");
    }
    const pathTenant = /^\/v1\/tenants\/([^/]+)/.exec(c.req.path)?.[1];
    if (pathTenant && assertion.tenant?.tenant_id !== pathTenant) throw notFound("tenant");
    c.set("tenant", assertion.tenant);
    c.set("deps", deps);
    await next();
  };
}
