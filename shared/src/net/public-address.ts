import { lookup as dnsLookup } from "node:dns/promises";
import { isIP, type LookupFunction } from "node:net";
import { isSpecialUse } from "./special-addresses.ts";

/** Why a host was refused: it does not resolve, or one of its addresses is special-use. */
export class AddressRefused extends Error {
  override name = "AddressRefused";
  readonly reason: "host_not_found" | "address_not_allowed";
  constructor(reason: AddressRefused["reason"]) {
    super(`address refused: ${reason}`);
    this.reason = reason;
  }
}

export interface ResolvedAddress {
  address: string;
  family: number;
}

/**
 * Resolves a URL's hostname (an IP literal, bracketed IPv6 included, is taken as is) and checks
 * every address it resolves to: one special-use answer refuses the host, unless that address is in
 * `allowed` (empty in production; tests and local development name their loopback receivers).
 * Connect to the address this returns, through `pinnedLookup`, never to the name again.
 *
 * @example
 * const pinned = await resolvePublicAddress(url.hostname, new Set()); // AddressRefused when refused
 */
export async function resolvePublicAddress(hostname: string, allowed: ReadonlySet<string>): Promise<ResolvedAddress> {
  const literal = hostname.startsWith("[") ? hostname.slice(1, -1) : hostname;
  let answers: ResolvedAddress[];
  if (isIP(literal)) answers = [{ address: literal, family: isIP(literal) }];
  else {
    try {
      answers = await dnsLookup(literal, { all: true, verbatim: true });
    } catch {
      throw new AddressRefused("host_not_found");
    }
  }
  if (answers.length === 0) throw new AddressRefused("host_not_found");
  for (const a of answers)
    if (isSpecialUse(a.address) && !allowed.has(a.address)) throw new AddressRefused("address_not_allowed");
  return answers[0]!;
}

/**
 * A `lookup` for http(s).request that answers with the checked address only, so a DNS answer that
 * changes between the check and the connection ("DNS rebinding") cannot redirect it. TLS is still
 * verified against the URL's host.
 */
export function pinnedLookup(pinned: ResolvedAddress): LookupFunction {
  return (_host, options, callback) => {
    if ((options as { all?: boolean }).all) (callback as (e: null, a: unknown[]) => void)(null, [pinned]);
    else callback(null, pinned.address, pinned.family);
  };
}
