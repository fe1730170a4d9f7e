import type { IncomingHttpHeaders } from "node:http";
import { BlockList, isIP } from "node:net";

/** `::ffff:1.2.3.4` (an IPv4 peer on a dual-stack socket) → `1.2.3.4`. */
const plain = (address: string) =>
  address.startsWith("::ffff:") && isIP(address.slice(7)) === 4 ? address.slice(7) : address;

/**
 * The proxies whose `X-Forwarded-For` the gateway believes, from TRUSTED_PROXIES: comma-separated
 * addresses or CIDR blocks (`10.0.0.0/8, 2001:db8::/32`), typically the load balancer's subnets.
 * Throws on an entry that is neither, so a typo fails the boot instead of trusting nobody.
 *
 * @example
 * const trusted = trustedProxies("10.0.0.0/16");
 * clientAddress(req, trusted) // the client behind the load balancer, or the peer itself
 */
export function trustedProxies(list: readonly string[]): BlockList {
  const blocks = new BlockList();
  for (const entry of list) {
    const [address, prefix] = entry.split("/") as [string, string | undefined];
    const family = isIP(address);
    if (family === 0) throw new Error(`TRUSTED_PROXIES: not an address or CIDR block: ${entry}`);
    const type = family === 4 ? "ipv4" : "ipv6";
    if (prefix === undefined) blocks.addAddress(address, type);
    else {
      const bits = Number(prefix);
      if (!Number.isInteger(bits) || bits < 0 || bits > (family === 4 ? 32 : 128))
        throw new Error(`TRUSTED_PROXIES: bad prefix length in ${entry}`);
      blocks.addSubnet(address, bits, type);
    }
  }
  return blocks;
}

const trusts = (blocks: BlockList, address: string) => {
  const family = isIP(address);
  return family !== 0 && blocks.check(address, family === 4 ? "ipv4" : "ipv6");
};

/**
 * The address a request came from, for the per-client rate limit and the `x-forwarded-for` the
 * services see. The peer of the socket, unless that peer is a trusted proxy: then the
 * `X-Forwarded-For` chain is walked from the right (the entry the nearest proxy added) past
 * every trusted proxy, and the first address it did not come from a trusted proxy is the client.
 * Entries further left were written by the client itself and are never believed: anyone can send
 * `X-Forwarded-For: 1.2.3.4`. With no trusted proxies configured, the header is ignored entirely,
 * so a caller cannot buy a fresh rate-limit bucket per request by inventing addresses.
 */
export function clientAddress(
  req: { headers: IncomingHttpHeaders; socket: { remoteAddress?: string | undefined } },
  trusted: BlockList | undefined,
): string {
  const peer = plain(req.socket.remoteAddress ?? "unknown");
  if (trusted === undefined || !trusts(trusted, peer)) return peer;
  const header = req.headers["x-forwarded-for"];
  if (header === undefined) return peer;
  const chain = (Array.isArray(header) ? header.join(",") : header).split(",").map((s) => plain(s.trim()));
  let client = peer;
  for (let i = chain.length - 1; i >= 0; i--) {
    const hop = chain[i]!;
    if (isIP(hop) === 0) break; // garbage from the client: stop at the last address we could trust
    client = hop;
    if (!trusts(trusted, hop)) break;
  }
  return client;
}
