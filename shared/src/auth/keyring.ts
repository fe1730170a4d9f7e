import { createHmac } from "node:crypto";
import type { VerifiedIdentity } from "@flowstate/contracts/internal/identity";
import { GATEWAY_SIGNER, type KeySigner, keyPairId, keyPairsOf } from "@flowstate/contracts/internal/key-pairs";
import type { FlowstateServiceName } from "@flowstate/contracts/services/catalog";
import { z } from "zod";
import { DomainError } from "../errors/domain-error.ts";
import { type AssertionVerifierOptions, cachedVerifier, type VerifiedAssertion } from "./assertion-cache.ts";
import { type Assertion, encodePayload, type HeaderCheck, type RequestBinding } from "./identity-assertion.ts";
import { checkKeyedHeader, kidOf, signKeyedPayload } from "./keyed-assertion.ts";

/**
 * Keys per caller and callee (ADR 0014). Each pair of the registries (contracts/src/internal/
 * key-pairs.ts) has its own HMAC key, stored as one Secrets Manager secret holding the current key
 * and, during a rotation, the previous one. A process holds only its own pairs: partner-inbound's
 * one key signs partner-inbound's one call and nothing else.
 */
export const PairKey = z.object({ generation: z.number().int().positive(), key: z.string().min(32) });
export type PairKey = z.infer<typeof PairKey>;
/**
 * The value of `<prefix>/<stage>/keys/<signer>--<verifier>`: `{current, previous?}` as the bootstrap
 * and the rotation write it, or the flat `{generation, key}` of a first generation that the CDK
 * storage stack has Secrets Manager generate (deploy/aws/stacks/storage.ts), read as `{current}`.
 */
export const PairSecret = z.union([
  z.object({ current: PairKey, previous: PairKey.optional() }),
  PairKey.transform((current): { current: PairKey; previous?: PairKey } => ({ current })),
]);
export type PairSecret = z.output<typeof PairSecret>;

/**
 * One pair's key of one generation: HMAC-SHA256(master, "flowstate-key-v1\n<pair>\n<generation>").
 * Only the bootstrap and the rotation command hold the master; services read the derived keys.
 * Deterministic, so a bootstrap re-run, a second region or a test derives the same key.
 *
 * @example
 * deriveKey(master, "partner-inbound--connector-svc", 1);
 */
export const deriveKey = (master: string, pairId: string, generation: number) =>
  createHmac("sha256", master).update(`flowstate-key-v1\n${pairId}\n${generation}`).digest("base64url");

/** The secret value of a pair at `generation`, the previous generation kept for the rotation window. */
export function pairSecretAt(master: string, pairId: string, generation: number, previous?: PairKey): PairSecret {
  const current = { generation, key: deriveKey(master, pairId, generation) };
  return previous ? { current, previous } : { current };
}

/**
 * The keys one process holds, replaced whole on reload (keyring-loader.ts): readers always see one
 * consistent set. Built with the process's name: the verifier looks up `<kid>--<self>`, the signer
 * `<self>--<callee>` (or `gateway--<callee>` in a door).
 */
export class Keyring {
  readonly self: FlowstateServiceName;
  #pairs: ReadonlyMap<string, PairSecret>;
  constructor(self: FlowstateServiceName, pairs: ReadonlyMap<string, PairSecret>) {
    this.self = self;
    this.#pairs = pairs;
  }
  replace(pairs: ReadonlyMap<string, PairSecret>): void {
    this.#pairs = pairs;
  }
  pair(id: string): PairSecret | undefined {
    return this.#pairs.get(id);
  }
  /** The pair ids held, sorted (for logs and tests; never the keys). */
  ids(): string[] {
    return [...this.#pairs.keys()].sort();
  }
}

/**
 * A keyring derived from a test master: every pair `self` takes part in, at `generation`. Test
 * harnesses pass the secret they used to pass as the shared key, so every process of one test
 * derives matching keys.
 *
 * @example
 * const keyring = testKeyring("connector-svc", secret);
 */
export function testKeyring(self: FlowstateServiceName, master: string, generation = 1): Keyring {
  return new Keyring(self, new Map(keyPairsOf(self).map((p) => [p.id, pairSecretAt(master, p.id, generation)])));
}

const notAllowed = (signer: string) =>
  new DomainError("forbidden", "FORBIDDEN", `${signer} is not allowed to call this service`);

const INVALID: HeaderCheck = Object.freeze({ status: "invalid" });

/**
 * A verifier over a keyring: the header's kid picks the pair `<kid>--<self>`; a signer with no
 * pair here throws 403 FORBIDDEN (it may not call this service at all); a header the pair's keys
 * do not verify is null (401). A genuine header must also assert what its signer may assert: the
 * gateway key a user or API key (never a `service`), a service key exactly that service (never a
 * user, never another service): anything else is 403. Verified headers are cached as v3's are.
 *
 * @example
 * const verify = keyringVerifier(keyring);
 * verify(await requestBinding(c), header); // null → 401; throws 403 for a caller without a key here
 */
export function keyringVerifier(keyring: Keyring, options: AssertionVerifierOptions = {}) {
  return cachedVerifier((binding, header, now) => {
    const kid = kidOf(header);
    if (kid === undefined) return INVALID;
    const pair = keyring.pair(keyPairId(kid as KeySigner, keyring.self));
    if (!pair) throw notAllowed(kid);
    const keys = pair.previous ? [pair.current.key, pair.previous.key] : [pair.current.key];
    const checked = checkKeyedHeader(keys, binding, header, now);
    if (checked.status !== "valid") return checked;
    const { identity } = checked.assertion;
    const allowed =
      kid === GATEWAY_SIGNER ? identity.kind !== "service" : identity.kind === "service" && identity.service === kid;
    if (!allowed) throw notAllowed(kid);
    return checked;
  }, options);
}

export type KeyedVerifier = ReturnType<typeof keyringVerifier>;
export type { VerifiedAssertion };

type ServiceName = Extract<VerifiedIdentity, { kind: "service" }>["service"];

const signingKey = (keyring: Keyring, signer: KeySigner, callee: FlowstateServiceName) => {
  const pair = keyring.pair(keyPairId(signer, callee));
  // A deployment error, not a caller's: this process was not given the key of a call it makes.
  if (!pair) throw new Error(`${keyring.self} holds no key ${keyPairId(signer, callee)}`);
  return pair.current.key;
};

/**
 * The header of this process's own call to `callee` (its `service` identity), signed with the
 * current key of `<self>--<callee>`.
 *
 * @example
 * const header = serviceSigner(keyring, "connector-svc")(bodyless("GET", "/internal/v1/marketplace-connectors"));
 */
export const serviceSigner =
  (keyring: Keyring, callee: FlowstateServiceName) =>
  (binding: RequestBinding, now = Date.now()): string =>
    signKeyedPayload(
      signingKey(keyring, keyring.self, callee),
      keyring.self,
      binding,
      // Only a process with a `<self>--<callee>` pair gets here (signingKey throws first), and every
      // internal route's callers are service identities: the cast names what the registry ensures.
      encodePayload({ identity: { kind: "service", service: keyring.self as ServiceName } }),
      now,
    );

/**
 * A door's header for the caller it forwards to `callee`, signed with `gateway--<callee>`. A
 * `service` identity is refused here too: the gateway key never speaks for a platform component.
 */
export function gatewaySign(
  keyring: Keyring,
  callee: FlowstateServiceName,
  binding: RequestBinding,
  assertion: Assertion,
  now = Date.now(),
): string {
  if (assertion.identity.kind === "service") throw new Error("the gateway key signs no service identity");
  return gatewaySignPayload(keyring, callee, binding, encodePayload(assertion), now);
}

/** gatewaySign with the payload already encoded (the door's reuse cache, gateway-signer.ts, which checks the identity). */
export function gatewaySignPayload(
  keyring: Keyring,
  callee: FlowstateServiceName,
  binding: RequestBinding,
  payload: string,
  now = Date.now(),
): string {
  return signKeyedPayload(signingKey(keyring, GATEWAY_SIGNER, callee), GATEWAY_SIGNER, binding, payload, now);
}
