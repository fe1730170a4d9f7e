import { assertionVerifier } from "@flowstate/shared/auth/assertion-cache";
import { IDENTITY_HEADER } from "@flowstate/shared/auth/identity-assertion";
import { requestBinding } from "@flowstate/shared/auth/request-binding";
import { DomainError } from "@flowstate/shared/errors/domain-error";
import type { MiddlewareHandler } from "hono";
import type { PrivacyDeps } from "../deps.ts";
import type { PrivacyEnv } from "./env.ts";

const unauthenticated = () =>
  new DomainError("unauthenticated", "UNAUTHENTICATED", "this service is reached through the gateway only");

/**
 * Deny by default: privacy-svc has no public route, so every request (probes aside, mounted
 * before this) must carry a gateway assertion that is genuine, fresh and bound to this very request
 * (method, target with its query, body hash), else 401 whatever the path. Only a user's identity is accepted: no route here is for
 * API keys (the registry says `auth: user`) or for another service.
 */
export function privacyContext(deps: PrivacyDeps): MiddlewareHandler<PrivacyEnv> {
  const verify = assertionVerifier(deps.internalAuthSecret);
  return async function privacyContext(c, next) {
    const verified = verify(await requestBinding(c), c.req.header(IDENTITY_HEADER));
    const identity = verified?.assertion.identity;
    if (!identity || identity.kind === "service") throw unauthenticated();
    if (identity.kind === "api_key") {
      throw new DomainError(
        "forbidden",
        "API_KEY_NOT_ALLOWED",
        "this route needs a user's access token, not an API key",
      );
    }
    c.set("ctx", {
      em: deps.orm.em.fork(),
      actor: identity,
      requestId: c.get("requestId"),
      trace: c.req.header("traceparent"),
      logger: c.get("logger"),
      deps,
    });
    await next();
  };
}
