import type { VerifiedIdentity } from "@flowstate/contracts/internal/identity";
import type { FlowstateServiceName } from "@flowstate/contracts/services/catalog";
import type { VerifiedAssertion } from "../auth/assertion-cache.ts";
import type { RequestBinding } from "../auth/identity-assertion.ts";
import { type Keyring, keyringVerifier, serviceSigner } from "../auth/keyring.ts";

/**
 * The one place a service decides that a signed header is genuine, fresh and bound to this request
 * (`null`: it is not; throws 503 for a genuine one held past its window, assertion-cache.ts; throws
 * 403 for a signer that holds no key with this service, keyring.ts). The seam receives it as a
 * function, so how keys are chosen changes this file and the signer below, not the seam or any
 * service.
 */
export type CallerVerifier = (binding: RequestBinding, header: string | undefined | null) => VerifiedAssertion | null;

/**
 * Headers are checked against the process's keys per caller (ADR 0014): the pair `<kid>--<self>`
 * of the signer the header names. There is no shared key any more: a header in any other format
 * (the one-key v3 included) is not genuine (null → 401).
 *
 * @example
 * const verify = callerVerifier(deps.callerKeys);
 * const verified = verify(await requestBinding(c), rawHeader(c, IDENTITY_HEADER));
 */
export const callerVerifier = (keyring: Keyring): CallerVerifier => keyringVerifier(keyring);

/** A platform component calling on its own behalf. */
export type ServiceIdentity = Extract<VerifiedIdentity, { kind: "service" }>;

/** Signs a service's own call to another service's `/internal/v1` route: `header(binding)`. */
export type InternalSigner = (binding: RequestBinding) => string;

/**
 * The signer of `service`'s own call to `callee`: the current key of its pair `<service>--<callee>`
 * (ADR 0014). The counterpart of `callerVerifier`.
 *
 * @example
 * remoteCredentials({ identityUrl, sign: callSigner(deps, "offers-svc", "identity-svc") });
 */
export const callSigner = (
  deps: { callerKeys: Keyring },
  service: ServiceIdentity["service"],
  callee: FlowstateServiceName,
): InternalSigner => {
  // A wiring error, not a caller's: the keyring signs as the process it was loaded for.
  if (deps.callerKeys.self !== service) throw new Error(`${deps.callerKeys.self}'s keys cannot sign as ${service}`);
  return serviceSigner(deps.callerKeys, callee);
};
