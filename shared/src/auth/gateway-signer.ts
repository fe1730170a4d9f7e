import type { FlowstateServiceName } from "@flowstate/contracts/services/catalog";
import { LruCache } from "../cache/lru.ts";
import type { AssertionSignerOptions } from "./assertion-cache.ts";
import { type Assertion, EMPTY_BODY_SHA256, payloadJson, type RequestBinding } from "./identity-assertion.ts";
import { gatewaySignPayload, type Keyring } from "./keyring.ts";

/** A door's signer: the header for the caller it forwards to `service` (the route's owner). */
export type DoorSign = (
  service: FlowstateServiceName,
  binding: RequestBinding,
  assertion: Assertion,
  now?: number,
) => string;

/**
 * The doors' signer with keys per caller (ADR 0014): `gateway--<service>`'s current key; a
 * bodyless request's header is reused for `reuseMs` for the same service, identity, tenant, method
 * and target (assertion-cache.ts says why that weakens nothing), so services verify it once. The key is read from the keyring on every
 * miss, so a reload after a rotation is used within `reuseMs`.
 *
 * @example
 * const sign = doorSigner(keys.keyring);
 * headers.push(IDENTITY_HEADER, sign(route.service, bodyless("GET", target), { identity, tenant, channel }));
 */
export function doorSigner(keyring: Keyring, options: AssertionSignerOptions = {}): DoorSign {
  const reuseMs = options.reuseMs ?? 1000;
  const signed = new LruCache<{ header: string; issued: number }>(options.max ?? 10_000);
  return function sign(service, binding, assertion, now = Date.now()) {
    if (assertion.identity.kind === "service") throw new Error("the gateway key signs no service identity");
    const json = payloadJson(assertion);
    const fresh = () => gatewaySignPayload(keyring, service, binding, Buffer.from(json).toString("base64url"), now);
    if (binding.bodySha256 !== EMPTY_BODY_SHA256) return fresh();
    // The key holds everything the MAC covers but the timestamp and the (empty) body hash. A newline
    // occurs neither in a method, nor in a request target, nor in JSON.stringify's output (it
    // escapes control characters), so the key splits one way only.
    const key = `${service}\n${binding.method}\n${json}\n${binding.target}`;
    const hit = signed.get(key, now);
    // `now >= issued`: a clock that stepped back gets a fresh header rather than one from the future.
    if (hit !== undefined && now >= hit.issued) return hit.header;
    const header = fresh();
    signed.set(key, { header, issued: now }, now + reuseMs);
    return header;
  };
}
