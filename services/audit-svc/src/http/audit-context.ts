import { assertionVerifier } from "@flowstate/shared/auth/assertion-cache";
import { IDENTITY_HEADER } from "@flowstate/shared/auth/identity-assertion";
import { requestBinding } from "@flowstate/shared/auth/request-binding";
import { DomainError } from "@flowstate/shared/errors/domain-error";
import type { MiddlewareHandler } from "hono";
import type { AuditDeps } from "../deps.ts";
import type { AuditEnv } from "./env.ts";

const unauthenticated = () =>
  new DomainError("unauthenticated", "UNAUTHENTICATED", "this service is reached through the gateway only");

/**
 * Deny by default: audit-svc has no public and no internal route, so every request (probes aside,
 * mounted before this) must carry a gateway assertion that is genuine, fresh and bound to this
 * very request (method, target with its query, body hash) and name a user or an API key; else 401
 * whatever the path. Which of the two a route accepts, and the tenant, the verbs decide.
 */
export function auditContext(deps: AuditDeps): MiddlewareHandler<AuditEnv> {
  const verify = assertionVerifier(deps.internalAuthSecret);
  return async function auditContext(c, next) {
    const verified = verify(await requestBinding(c), c.req.header(IDENTITY_HEADER));
    const identity = verified?.assertion.identity;
    if (!identity || identity.kind === "service") throw unauthenticated();
    c.set("ctx", {
      actor: identity,
      tenant: verified.assertion.tenant,
      requestId: c.get("requestId"),
      logger: c.get("logger"),
      deps,
    });
    await next();
  };
}
