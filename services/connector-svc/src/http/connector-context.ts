import { connectorRoutes } from "@flowstate/contracts/rest/routes";
import { assertionVerifier } from "@flowstate/shared/auth/assertion-cache";
import { IDENTITY_HEADER } from "@flowstate/shared/auth/identity-assertion";
import { requestBinding } from "@flowstate/shared/auth/request-binding";
import { DomainError } from "@flowstate/shared/errors/domain-error";
import type { MiddlewareHandler } from "hono";
import type { ServiceContext } from "../context.ts";
import type { ConnectorDeps } from "../deps.ts";
import type { ConnectorEnv } from "./env.ts";

const PUBLIC = new Set(connectorRoutes.filter((r) => r.auth === "public").map((r) => `${r.method} ${r.path}`));
/**
 * Which platform component may call which /internal/v1 routes: offers-svc and mcp-gateway read a
 * tenant's connector (its external ID); partner-inbound only lists connected accounts (ids only).
 */
const INTERNAL_CALLERS = new Set(["offers-svc", "mcp-gateway", "partner-inbound"]);
const ACCOUNTS_ONLY = "/internal/v1/marketplace-connectors";

const unauthenticated = () =>
  new DomainError("unauthenticated", "UNAUTHENTICATED", "this service is reached through the gateway only");

/**
 * Deny by default, as in identity-svc: every request but the public template must carry a gateway
 * assertion that is genuine, fresh and bound to this very request (method, target, body hash); otherwise 401 on every
 * path, so a direct caller learns nothing about the routes. `/v1` needs a caller forwarded by a
 * gateway (with its channel: it picks the principal that reaches the seller's account);
 * `/internal/v1` needs offers-svc's or mcp-gateway's own `service` identity.
 */
export function connectorContext(deps: ConnectorDeps): MiddlewareHandler<ConnectorEnv> {
  const verify = assertionVerifier(deps.internalAuthSecret);
  return async function connectorContext(c, next) {
    const ctx: ServiceContext = {
      actor: { kind: "system" },
      requestId: c.get("requestId"),
      trace: c.req.header("traceparent"),
      logger: c.get("logger"),
      deps,
    };
    if (!PUBLIC.has(`${c.req.method} ${c.req.path}`)) {
      const verified = verify(await requestBinding(c), c.req.header(IDENTITY_HEADER));
      if (!verified) throw unauthenticated();
      const { assertion } = verified;
      const internal = c.req.path.startsWith("/internal/");
      const { identity } = assertion;
      if (internal !== (identity.kind === "service")) throw unauthenticated();
      if (identity.kind === "service" && !INTERNAL_CALLERS.has(identity.service)) throw unauthenticated();
      if (identity.kind === "service" && (identity.service === "partner-inbound") !== (c.req.path === ACCOUNTS_ONLY))
        throw unauthenticated();
      if (!internal && assertion.channel === undefined) throw unauthenticated();
      ctx.actor = identity;
      ctx.tenant = assertion.tenant;
      ctx.channel = assertion.channel;
    }
    c.set("ctx", ctx);
    await next();
  };
}
