import { BlockList, isIP } from "node:net";

/**
 * Special-use address blocks (RFC 6890 and the IANA special-purpose registries, plus multicast
 * and reserved space): nothing a caller names by URL is fetched from or sent to one of these, or
 * the caller could make a service probe its own network ("Server-Side Request Forgery"):
 * identity-svc's Client ID Metadata Documents (draft-ietf-oauth-client-id-metadata-document) and
 * notify-svc's webhooks both go through public-address.ts. IPv6 forms that embed an IPv4 address
 * (mapped, NAT64, 6to4) are checked by the address they embed.
 */
const blocked = new BlockList();
for (const [net, prefix] of [
  ["0.0.0.0", 8], // "this network"
  ["10.0.0.0", 8], // private
  ["100.64.0.0", 10], // shared address space (CGNAT)
  ["127.0.0.0", 8], // loopback
  ["169.254.0.0", 16], // link local (cloud metadata endpoints live here)
  ["172.16.0.0", 12], // private
  ["192.0.0.0", 24], // IETF protocol assignments
  ["192.0.2.0", 24], // documentation
  ["192.31.196.0", 24], // AS112
  ["192.52.193.0", 24], // AMT
  ["192.88.99.0", 24], // 6to4 relay anycast
  ["192.168.0.0", 16], // private
  ["192.175.48.0", 24], // AS112 direct delegation
  ["198.18.0.0", 15], // benchmarking
  ["198.51.100.0", 24], // documentation
  ["203.0.113.0", 24], // documentation
  ["224.0.0.0", 4], // multicast
  ["240.0.0.0", 4], // reserved, and 255.255.255.255
] as const)
  blocked.addSubnet(net, prefix, "ipv4");
for (const [net, prefix] of [
  ["::", 128], // unspecified
  ["::1", 128], // loopback
  ["::", 96], // IPv4-compatible (deprecated)
  ["100::", 64], // discard only
  ["2001::", 23], // IETF protocol assignments (Teredo, ORCHID, benchmarking…)
  ["2001:db8::", 32], // documentation
  ["3fff::", 20], // documentation
  ["5f00::", 16], // segment routing
  ["fc00::", 7], // unique local
  ["fe80::", 10], // link local
  ["fec0::", 10], // site local (deprecated)
  ["ff00::", 8], // multicast
] as const)
  blocked.addSubnet(net, prefix, "ipv6");

/** The IPv4 address an IPv6 address carries in its low or 6to4 bits, when it is one of those forms. */
function embeddedIpv4(address: string): string | null {
  const lower = address.toLowerCase();
  const mapped = /^::ffff:(?:0:)?(\d+\.\d+\.\d+\.\d+)$/.exec(lower);
  if (mapped) return mapped[1]!;
  const hex = expandIpv6(lower);
  if (hex === null) return null;
  const v4 = (hi: number, lo: number) => `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;
  if (hex[0] === 0 && hex[1] === 0 && hex[2] === 0 && hex[3] === 0 && hex[4] === 0 && hex[5] === 0xffff)
    return v4(hex[6]!, hex[7]!); // ::ffff:a.b.c.d in hex form
  if (hex[0] === 0x64 && hex[1] === 0xff9b) return v4(hex[6]!, hex[7]!); // NAT64 64:ff9b::/96 and /48
  if (hex[0] === 0x2002) return v4(hex[1]!, hex[2]!); // 6to4
  return null;
}

/** The eight 16-bit groups of an IPv6 address, or null. */
function expandIpv6(address: string): number[] | null {
  if (isIP(address) !== 6 || address.includes(".")) return null;
  const [head, tail] = address.split("::") as [string, string | undefined];
  const left = head ? head.split(":") : [];
  const right = tail ? tail.split(":") : [];
  const missing = 8 - left.length - right.length;
  const groups = [...left, ...(tail !== undefined ? Array(missing).fill("0") : []), ...right];
  return groups.length === 8 ? groups.map((g) => Number.parseInt(g, 16)) : null;
}

/**
 * True when the address must not be fetched from (loopback, private, link local, documentation,
 * multicast, reserved…), or is not an IP address at all.
 *
 * @example
 * isSpecialUse("169.254.169.254") // true: the cloud metadata service
 * isSpecialUse("::ffff:10.0.0.1") // true: an IPv4-mapped private address
 * isSpecialUse("93.184.215.14")   // false
 */
export function isSpecialUse(address: string): boolean {
  const family = isIP(address);
  if (family === 0) return true;
  if (family === 4) return blocked.check(address, "ipv4");
  const v4 = embeddedIpv4(address);
  if (v4 !== null) return blocked.check(v4, "ipv4") || blocked.check(address, "ipv6");
  return blocked.check(address, "ipv6");
}
