import type { TenantContext, VerifiedIdentity } from "@flowstate/contracts/internal/identity";
import { IDENTITY_HEADER, type RequestBinding } from "@flowstate/shared/auth/identity-assertion";
import { signedAs } from "@flowstate/shared/testing/signed-as";

/**
 * Signs a gateway assertion the way edge-gateway does, for driving identity-svc directly in tests:
 * the identity (and tenant context) bound to the request (method, target with its query, body hash).
 *
 * @example
 * await app.request("/v1/users/me", { headers: assertionHeaders(secret, bodyless("GET", "/v1/users/me"), { kind: "user", sub, sid }) });
 */
export function assertionHeaders(
  secret: string,
  binding: RequestBinding,
  identity: VerifiedIdentity,
  tenant?: TenantContext,
  now?: number,
): Record<string, string> {
  const assertion = { identity, ...(tenant ? { tenant } : {}) };
  return { [IDENTITY_HEADER]: signedAs(secret, "identity-svc", binding, assertion, now) };
}
