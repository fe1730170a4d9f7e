import type { TenantContext, VerifiedIdentity } from "@flowstate/contracts/internal/identity";
import { IDENTITY_HEADER, signAssertion } from "@flowstate/shared/auth/identity-assertion";

/**
 * Signs a gateway assertion the way edge-gateway does, for driving identity-svc directly in tests:
 * the identity (and tenant context) bound to the method and the path (no query string).
 *
 * @example
 * await app.request("/v1/users/me", { headers: assertionHeaders(secret, "GET", "/v1/users/me", { kind: "user", sub, sid }) });
 */
export function assertionHeaders(
  secret: string,
  method: string,
  pathWithQuery: string,
  identity: VerifiedIdentity,
  tenant?: TenantContext,
): Record<string, string> {
  const path = pathWithQuery.split("?")[0]!;
  const assertion = { identity, ...(tenant ? { tenant } : {}) };
  return { [IDENTITY_HEADER]: signAssertion(secret, method, path, assertion) };
}
