import { DomainError, notFound } from "@flowstate/shared/errors/domain-error";
import { connectorAccessDenied } from "@flowstate/shared/marketplace/connector-problems";
import type { Principal } from "@flowstate/shared/marketplace/principals";
import { AssumeRoleFailed } from "@flowstate/shared/marketplace/seller-sessions";
import { classifyUpstream, upstreamUnavailable } from "@flowstate/shared/marketplace/upstream-errors";

/** The seller's account refused the call (AssumeRole or the call itself). */
export const isAccessDenied = (err: unknown): boolean =>
  err instanceof AssumeRoleFailed ? err.failure.kind === "denied" : classifyUpstream(err).kind === "denied";

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
 * - refused (AssumeRole or the call) → 409 CONNECTOR_ACCESS_DENIED, the platform's one body
 *   (shared/src/marketplace/connector-problems.ts) that connector-svc answers too, naming the
 *   principal and the health endpoint (the agreements list, which must answer 500, catches it first).
 */
export function mapUpstreamError(err: unknown, what: string, call: { tenantId: string; principal: Principal }): Error {
  if (err instanceof DomainError) return err;
  const failure = err instanceof AssumeRoleFailed ? err.failure : classifyUpstream(err);
  const cause = err;
  const ext = { upstream_error: failure.name };
  if (failure.kind === "throttled" || failure.kind === "unavailable") return upstreamUnavailable(failure, cause);
  if (failure.kind === "denied" || err instanceof AssumeRoleFailed) {
    const principal = err instanceof AssumeRoleFailed ? err.principal : call.principal;
    return connectorAccessDenied({ tenantId: call.tenantId, principal, upstreamError: failure.name, cause });
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
