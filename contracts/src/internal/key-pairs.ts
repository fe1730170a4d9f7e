import { routes } from "../rest/routes.ts";
import { type FlowstateServiceName, serviceCatalog } from "../services/catalog.ts";
import { INVALIDATIONS_PUSHER } from "./doors.ts";
import { internalRoutes } from "./routes.ts";

/**
 * Who signs an assertion (the `kid` of a v4 header, ADR 0014): `gateway` for an identity a door
 * forwards (both doors hold that key, so a service cannot tell them apart and need not), or the
 * platform component calling on its own behalf.
 */
export type KeySigner = "gateway" | FlowstateServiceName;

/** One HMAC key: shared by exactly one signer and one verifier. */
export interface KeyPair {
  /** `<signer>--<verifier>`: the Secrets Manager name's last part (`<prefix>/<stage>/keys/<id>`). */
  id: string;
  signer: KeySigner;
  verifier: FlowstateServiceName;
}

export const GATEWAY_SIGNER = "gateway" as const;

/** `gateway--offers-svc`, `partner-inbound--connector-svc`. */
export const keyPairId = (signer: KeySigner, verifier: FlowstateServiceName) => `${signer}--${verifier}`;

const doors = (Object.keys(serviceCatalog) as FlowstateServiceName[]).filter((n) => serviceCatalog[n].kind === "door");

/**
 * Every key of the deployment, derived from the registries and never listed by hand: one
 * `gateway--<service>` for each service that owns a non-public route a door forwards, one
 * `<caller>--<service>` for each caller an internal route allows, and one `identity-svc--<door>`
 * for each door of the catalog (identity-svc's invalidation push to the door's internal listener,
 * doors.ts). A pair not here has no key, so a call the registries do not allow cannot even be
 * signed (the verifier answers 403).
 */
export const keyPairs: readonly KeyPair[] = (() => {
  const seen = new Map<string, KeyPair>();
  const add = (signer: KeySigner, verifier: FlowstateServiceName) =>
    seen.set(keyPairId(signer, verifier), { id: keyPairId(signer, verifier), signer, verifier });
  for (const r of routes) if (r.auth !== "public") add(GATEWAY_SIGNER, r.service as FlowstateServiceName);
  for (const r of internalRoutes) for (const caller of r.callers) add(caller, r.service as FlowstateServiceName);
  for (const door of doors) add(INVALIDATIONS_PUSHER, door);
  return [...seen.values()].sort((a, b) => a.id.localeCompare(b.id));
})();

/**
 * The keys one process holds: the pairs it verifies, the pairs it signs as a caller, and, for a
 * door, every `gateway--*` pair (it signs the identities it forwards). Nothing else: a stolen
 * process's keys sign only the calls that process was allowed to make.
 *
 * @example
 * keyPairsOf("partner-inbound").map((p) => p.id); // ["partner-inbound--connector-svc"]
 */
export function keyPairsOf(service: FlowstateServiceName): KeyPair[] {
  const door = (doors as string[]).includes(service);
  return keyPairs.filter(
    (p) => p.verifier === service || p.signer === service || (door && p.signer === GATEWAY_SIGNER),
  );
}
