/**
 * RFC 8707 resource indicators, compared in one canonical form: absolute http(s), no fragment,
 * scheme and host lower-cased (URL does that), one trailing slash dropped. Clients differ on the
 * slash (`new URL("https://x/mcp/").href`, origin-only resources gain one), and the MCP spec asks
 * servers to accept both; tokens always carry the configured canonical form.
 *
 * @example
 * canonicalResource("HTTPS://MCP.Example.com/mcp/") // "https://mcp.example.com/mcp"
 * canonicalResource("https://mcp.example.com/mcp#x") // null
 */
export function canonicalResource(value: string): string | null {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return null;
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") return null;
  if (url.hash || value.includes("#") || url.username || url.password) return null;
  const path = url.pathname.endsWith("/") ? url.pathname.slice(0, -1) : url.pathname;
  return `${url.protocol}//${url.host}${path}${url.search}`;
}

/**
 * The resource a request names, resolved against the configured ones: absent → the only
 * configured resource (clients omit it when they found no resource metadata); unknown or
 * ambiguous → null, which the caller answers with `invalid_target`.
 */
export function resolveResource(requested: string | undefined, configured: readonly string[]): string | null {
  if (requested === undefined) return configured.length === 1 ? configured[0]! : null;
  const canonical = canonicalResource(requested);
  return canonical !== null && configured.includes(canonical) ? canonical : null;
}
