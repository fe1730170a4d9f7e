import type { FlowstateServiceName } from "@flowstate/contracts/services/catalog";
import { LruCache } from "../cache/lru.ts";
import { type AssertionSignerOptions, assertionSigner } from "./assertion-cache.ts";
import { type Assertion, EMPTY_BODY_SHA256, payloadJson, type RequestBinding } from "./identity-assertion.ts";
import { gatewaySignPayload, type Keyring } from "./keyring.ts";

/** A door's signer: the header for the caller it forwards to `service` (the route's owner). */
export type DoorSign = (service: FlowstateServiceName, binding: RequestBinding, assertion: Assertion) => string;

/**
 * The doors' signer with keys per caller (ADR 0014): `gateway--<service>`'s current key, and the
 * same reuse as the one-key `assertionSigner` (a bodyless request's header reused for `reuseMs` for
 * the same service, identity, tenant, method and target). The key is read from the keyring on every
 * miss, so a reload after a rotation is used within `reuseMs`.
 *
 * @example
 * const sign = doorSigner(keys.keyring);
 * headers.push(IDENTITY_HEADER, sign(route.service, bodyless("GET", target), { identity, tenant, channel }));
 */
export function doorSigner(keyring: Keyring, options: AssertionSignerOptions = {}): DoorSign {
  const reuseMs = options.reuseMs ?? 1000;
  const signed = new LruCache<{ header: string; issued: number }>(options.max ?? 10_000);
  return function sign(service, binding, assertion) {
    if (assertion.identity.kind === "service") throw new Error("the gateway key signs no service identity");
    const now = Date.now();
    const json = payloadJson(assertion);
    const fresh = () => gatewaySignPayload(keyring, service, binding, Buffer.from(json).toString("base64url"), now);
    if (binding.bodySha256 !== EMPTY_BODY_SHA256) return fresh();
    // A newline occurs in none of the parts (see assertionSigner), so the key splits one way only.
    const key = `${service}\n${binding.method}\n${json}\n${binding.target}`;
    const hit = signed.get(key, now);
    if (hit !== undefined && now >= hit.issued) return hit.header;
    const header = fresh();
    signed.set(key, { header, issued: now }, now + reuseMs);
    return header;
  };
}

/** The one-key signer in the door's shape, for a door not given keys per caller (tests, the migration). */
export function sharedKeyDoorSigner(secret: string, options: AssertionSignerOptions = {}): DoorSign {
  const sign = assertionSigner(secret, options);
  return (_service, binding, assertion) => sign(binding, assertion);
}
