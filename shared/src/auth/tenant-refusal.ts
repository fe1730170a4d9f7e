import type { TenantRefusalCode } from "@flowstate/contracts/auth/tenant-access";
import type { TenantRole } from "@flowstate/contracts/ids";
import { DomainError, notFound } from "../errors/domain-error.ts";

/**
 * The refusals of the tenant-access rule (contracts/src/auth/tenant-access.ts), worded once, so
 * the gateway and a service refuse the same caller with the same problem.
 */
export const apiKeyNotAllowed = () =>
  new DomainError("forbidden", "API_KEY_NOT_ALLOWED", "this operation needs a user's access token, not an API key");
export const invalidApiKey = () =>
  new DomainError("unauthenticated", "INVALID_API_KEY", "the API key is not valid or has been revoked");
/** A user's session ended (signed out, refreshed away) or the account is disabled or deleted. */
export const sessionRevoked = () =>
  new DomainError(
    "unauthenticated",
    "SESSION_REVOKED",
    "this session has ended or the account is disabled; sign in again",
  );
export const insufficientScope = () =>
  new DomainError("forbidden", "INSUFFICIENT_SCOPE", "this operation needs an API key with the write scope");
export const insufficientRole = (min: TenantRole) =>
  new DomainError("forbidden", "INSUFFICIENT_ROLE", `this operation needs the ${min} role or higher in the tenant`, {
    extensions: { required_role: min },
  });

/**
 * The DomainError for a refusal code `decideTenantAccess` returned.
 *
 * @example
 * const decision = decideTenantAccess(route, caller);
 * if (!decision.ok) throw tenantRefusal(decision.code, route.minRole);
 */
export function tenantRefusal(code: TenantRefusalCode, minRole: TenantRole): DomainError {
  switch (code) {
    case "INVALID_API_KEY":
      return invalidApiKey();
    case "API_KEY_NOT_ALLOWED":
      return apiKeyNotAllowed();
    case "INSUFFICIENT_SCOPE":
      return insufficientScope();
    case "INSUFFICIENT_ROLE":
      return insufficientRole(minRole);
    case "NOT_FOUND":
      return notFound("tenant");
  }
}
