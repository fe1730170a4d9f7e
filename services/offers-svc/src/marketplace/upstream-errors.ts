import { DomainError, notFound } from "@flowstate/shared/errors/domain-error";
import { AssumeRoleFailed } from "@flowstate/shared/marketplace/seller-sessions";
import { classifyUpstream, upstreamUnavailable } from "@flowstate/shared/marketplace/upstream-errors";

const health = (tenantId: string) => `/v1/tenants/${tenantId}/integrations/marketplace/health`;

/** The seller's account refused the call (AssumeRole or the call itself). */
export const isAccessDenied = (err: unknown): boolean =>
  err instanceof AssumeRoleFailed ? err.failure.kind === "denied" : classifyUpstream(err).kind === "denied";

/** 409 CONNECTOR_NOT_CONNECTED, as connector-svc answers it. */
export const notConnected = () =>
  new DomainError(
    "conflict",
    "CONNECTOR_NOT_CONNECTED",
    "this tenant has no marketplace connector: follow the onboarding (GET …/integrations/marketplace/onboarding), then connect",
  );

/**
 * The one mapping from an AWS Marketplace (or STS) failure to a DomainError, on top of the
 * platform's classification (shared/src/marketplace/upstream-errors.ts). Only AWS's error name is
 * kept (`upstream_error`); AWS's message and request id go to the log with the cause, never to
 * the client. A DomainError passes unchanged.
 *
 * - throttling, 5xx, no answer → 503 UPSTREAM_UNAVAILABLE with Retry-After;
 * - ValidationException → 400 MARKETPLACE_VALIDATION_FAILED; ResourceInUseException → 409
 *   OFFER_CHANGE_IN_PROGRESS; ConflictException → 409 MARKETPLACE_CONFLICT; quota and
 *   unsupported-resource errors → 422 MARKETPLACE_REFUSED;
 * - ResourceNotFoundException → 404 NOT_FOUND, exactly like an id that is not the tenant's;
 * - refused (AssumeRole or the call) → 409 CONNECTOR_ACCESS_DENIED, as connector-svc answers it,
 *   pointing at the health endpoint (the agreements list, which must answer 500, catches it first).
 */
export function mapUpstreamError(err: unknown, what: string, tenantId: string): Error {
  if (err instanceof DomainError) return err;
  const failure = err instanceof AssumeRoleFailed ? err.failure : classifyUpstream(err);
  const cause = err;
  const ext = { upstream_error: failure.name };
  if (failure.kind === "throttled" || failure.kind === "unavailable") return upstreamUnavailable(failure, cause);
  if (failure.kind === "denied" || err instanceof AssumeRoleFailed) {
    return new DomainError(
      "conflict",
      "CONNECTOR_ACCESS_DENIED",
      "the seller account's connector role refused this; GET …/integrations/marketplace/health says what to change",
      {
        extensions: {
          ...ext,
          health: health(tenantId),
          ...(err instanceof AssumeRoleFailed ? { principal: err.principal } : {}),
        },
        cause,
      },
    );
  }
  switch (failure.name) {
    case "ResourceNotFoundException":
      return Object.assign(notFound(what), { cause });
    case "ValidationException":
      return new DomainError("invalid", "MARKETPLACE_VALIDATION_FAILED", "AWS Marketplace refused the request", {
        extensions: ext,
        cause,
      });
    case "ResourceInUseException":
      return new DomainError(
        "conflict",
        "OFFER_CHANGE_IN_PROGRESS",
        "another change set is still being applied to this offer; wait for it to finish",
        { extensions: ext, cause },
      );
    case "ConflictException":
      return new DomainError("conflict", "MARKETPLACE_CONFLICT", "AWS Marketplace reported a conflict", {
        extensions: ext,
        cause,
      });
    case "ServiceQuotaExceededException":
    case "ResourceNotSupportedException":
      return new DomainError("unprocessable", "MARKETPLACE_REFUSED", "AWS Marketplace refused the request", {
        extensions: ext,
        cause,
      });
    default:
      return err instanceof Error ? err : new Error("non-Error upstream failure", { cause: err });
  }
}
