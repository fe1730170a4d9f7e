import type { VerifiedIdentity } from "@flowstate/contracts/internal/identity";
import type { FlowstateServiceName } from "@flowstate/contracts/services/catalog";
import { assertionVerifier, type VerifiedAssertion } from "../auth/assertion-cache.ts";
import { type RequestBinding, signAssertion } from "../auth/identity-assertion.ts";
import { type Keyring, keyringVerifier, serviceSigner } from "../auth/keyring.ts";

/**
 * The one place a service decides that a signed header is genuine, fresh and bound to this request
 * (`null`: it is not; throws 503 for a genuine one held past its window, assertion-cache.ts). The
 * seam receives it as a function, so replacing the single shared HMAC key with keys per caller
 * (issue 21) changes this file and the signer below, not the seam or any service.
 */
export type CallerVerifier = (binding: RequestBinding, header: string | undefined | null) => VerifiedAssertion | null;

/**
 * v4 headers (keys per caller, ADR 0014) are checked against the process's keyring: a signer with
 * no key here is refused with 403, whatever it asserts. v3 headers (the one shared key) are
 * accepted only while a `secret` is still given, for the callers not yet moved to the keyring;
 * without a keyring, a v4 header is not genuine (null).
 *
 * @example
 * const verify = callerVerifier(deps.internalAuthSecret, deps.callerKeys);
 * const verified = verify(await requestBinding(c), rawHeader(c, IDENTITY_HEADER));
 */
export const callerVerifier = (secret: string | undefined, keyring?: Keyring): CallerVerifier => {
  const legacy = secret === undefined ? undefined : assertionVerifier(secret);
  const keyed = keyring && keyringVerifier(keyring);
  return (binding, header) => {
    if (header?.startsWith("v4.")) return keyed ? keyed(binding, header) : null;
    return legacy ? legacy(binding, header) : null;
  };
};

/** A platform component calling on its own behalf. */
export type ServiceIdentity = Extract<VerifiedIdentity, { kind: "service" }>;

/** Signs a service's own call to another service's `/internal/v1` route: `header(binding)`. */
export type InternalSigner = (binding: RequestBinding) => string;

/**
 * The header a service sends with its own internal calls: its `service` identity bound to the
 * request. The counterpart of `callerVerifier` (the same swap point for keys per caller).
 *
 * @example
 * const sign = internalSigner(deps.internalAuthSecret, "offers-svc");
 * fetch(url, { headers: { [IDENTITY_HEADER]: sign(bodyless("GET", path)) } });
 */
export const internalSigner =
  (secret: string, service: ServiceIdentity["service"]): InternalSigner =>
  (binding) =>
    signAssertion(secret, binding, { identity: { kind: "service", service } });

/**
 * The signer of a service's own call to `callee`: its pair's key when the process has its keys per
 * caller (ADR 0014), the shared key otherwise (a process or test not moved yet).
 *
 * @example
 * remoteCredentials({ identityUrl, sign: callSigner(deps, "offers-svc", "identity-svc") });
 */
export const callSigner = (
  deps: { internalAuthSecret: string; callerKeys?: Keyring | undefined },
  service: ServiceIdentity["service"],
  callee: FlowstateServiceName,
): InternalSigner =>
  deps.callerKeys ? serviceSigner(deps.callerKeys, callee) : internalSigner(deps.internalAuthSecret, service);
