import { marketplacePath } from "@flowstate/contracts/rest/offers/common";
import { DomainError } from "../errors/domain-error.ts";
import type { Principal } from "./principals.ts";

/**
 * 409 CONNECTOR_NOT_CONNECTED: the one body every service that calls into a seller's account
 * answers when the tenant has no connector (connector-svc, offers-svc).
 *
 * @example
 * if (!connector) throw connectorNotConnected();
 */
export const connectorNotConnected = (): DomainError =>
  new DomainError(
    "conflict",
    "CONNECTOR_NOT_CONNECTED",
    "this tenant has no marketplace connector: follow the onboarding (GET …/integrations/marketplace/onboarding), then connect",
  );

export interface AccessDenied {
  tenantId: string;
  /** The Flowstate principal the seller's role refused (the caller's channel's). */
  principal: Principal;
  /** AWS's error name (`AccessDenied`, `AccessDeniedException`): never its message, which carries ARNs. */
  upstreamError: string;
  cause?: unknown;
}

/**
 * 409 CONNECTOR_ACCESS_DENIED: the seller's account refused a principal (AssumeRole) or a call.
 * One body from every service (connector-svc's products, offers-svc's offers, agreements and
 * currencies), so a client or mcp-gateway (which adds `principal_role`) reads one shape: AWS's
 * error name, the principal, and the health endpoint that says what to change.
 *
 * @example
 * throw connectorAccessDenied({ tenantId, principal: "mcp-execution", upstreamError: "AccessDenied", cause: err });
 */
export function connectorAccessDenied(o: AccessDenied): DomainError {
  return new DomainError(
    "conflict",
    "CONNECTOR_ACCESS_DENIED",
    `your seller account refused Flowstate's ${o.principal} principal; GET …/integrations/marketplace/health says what to change`,
    {
      extensions: {
        upstream_error: o.upstreamError,
        principal: o.principal,
        health: marketplacePath(o.tenantId, "health"),
      },
      cause: o.cause,
    },
  );
}
