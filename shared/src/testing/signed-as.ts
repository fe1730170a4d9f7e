import { keyPairId } from "@flowstate/contracts/internal/key-pairs";
import type { FlowstateServiceName } from "@flowstate/contracts/services/catalog";
import { type Assertion, encodePayload, IDENTITY_HEADER, type RequestBinding } from "../auth/identity-assertion.ts";
import { signKeyedPayload } from "../auth/keyed-assertion.ts";
import { deriveKey, gatewaySign, testKeyring } from "../auth/keyring.ts";

/**
 * The `flowstate-identity` header a test sends straight to `callee`, signed as the real caller
 * would with the keys derived from the test's secret (`testKeyring`, ADR 0014): a door's
 * `gateway--<callee>` for a user or API key, the service's own `<service>--<callee>` for a
 * `service` identity. A service the registries give no call to `callee` signs with the key such a
 * pair would have: the callee holds no such pair, so the call is refused 403 as in production.
 *
 * @example
 * await app.request(path, { headers: { [IDENTITY_HEADER]: signedAs(secret, "audit-svc", bodyless("GET", path), { identity, channel: "rest" }) } });
 */
export function signedAs(
  secret: string,
  callee: FlowstateServiceName,
  binding: RequestBinding,
  assertion: Assertion,
  now = Date.now(),
): string {
  const { identity } = assertion;
  if (identity.kind === "service") {
    const pair = keyPairId(identity.service, callee);
    return signKeyedPayload(deriveKey(secret, pair, 1), identity.service, binding, encodePayload(assertion), now);
  }
  return gatewaySign(testKeyring("edge-gateway", secret), callee, binding, assertion, now);
}

/** `signedAs` as a headers object. */
export const signedHeaders = (
  secret: string,
  callee: FlowstateServiceName,
  binding: RequestBinding,
  assertion: Assertion,
  now?: number,
): Record<string, string> => ({ [IDENTITY_HEADER]: signedAs(secret, callee, binding, assertion, now) });
