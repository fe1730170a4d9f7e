/** RFC 8252 section 7.3 loopback redirects (and `localhost`, which desktop clients register too). */
const LOOPBACK_HOSTS = new Set(["127.0.0.1", "[::1]", "localhost"]);
/** Schemes a native app may not claim as its private-use redirect scheme (RFC 8252 section 7.1). */
const FORBIDDEN_SCHEMES = new Set([
  "javascript:",
  "data:",
  "file:",
  "vbscript:",
  "blob:",
  "about:",
  "ftp:",
  "ws:",
  "wss:",
]);

const parse = (value: string): URL | null => {
  try {
    return new URL(value);
  } catch {
    return null;
  }
};

const isLoopback = (url: URL) => url.protocol === "http:" && LOOPBACK_HOSTS.has(url.hostname);

/**
 * Whether a client may register this redirect URI: https, http on a loopback host, or a
 * private-use scheme of a native app (`com.example.app:/cb`, `cursor://…`); never a fragment,
 * user info, or a scheme that runs code in the browser.
 */
export function registrableRedirectUri(value: string): boolean {
  const url = parse(value);
  if (url === null || value.includes("#") || url.username || url.password) return false;
  if (url.protocol === "https:") return url.hostname !== "";
  if (url.protocol === "http:") return isLoopback(url);
  return /^[a-z][a-z0-9+.-]*:$/.test(url.protocol) && !FORBIDDEN_SCHEMES.has(url.protocol);
}

/** Native when every redirect is loopback or a private-use scheme (RFC 8252), else web. */
export function applicationTypeOf(redirectUris: readonly string[]): "native" | "web" {
  return redirectUris.every((u) => !u.startsWith("https:")) ? "native" : "web";
}

/**
 * Exact string matching against the registered URIs (OAuth 2.1 section 4.1.3), with the one
 * exception RFC 8252 section 7.3 requires: for a loopback redirect the port is not compared, since
 * desktop clients listen on whatever port is free (a registration without a port matches any).
 * Scheme, host, path and query must still be identical, and `localhost` is not `127.0.0.1`.
 *
 * @example
 * redirectUriAllowed(["http://127.0.0.1/callback"], "http://127.0.0.1:53123/callback") // true
 * redirectUriAllowed(["https://app.example/cb"], "https://app.example/cb/") // false
 */
export function redirectUriAllowed(registered: readonly string[], requested: string): boolean {
  if (registered.includes(requested)) return true;
  const want = parse(requested);
  if (want === null || !isLoopback(want) || requested.includes("#") || want.username || want.password) return false;
  return registered.some((r) => {
    const have = parse(r);
    return (
      have !== null &&
      isLoopback(have) &&
      have.hostname === want.hostname &&
      have.pathname === want.pathname &&
      have.search === want.search
    );
  });
}
