/**
 * The client's redirect URI with the answer's parameters added to its query (RFC 6749 section
 * 4.1.2), including `iss` (RFC 9207) so a client talking to several servers can tell who answered.
 * `undefined` values are left out.
 *
 * @example
 * clientRedirect("http://127.0.0.1:5312/cb", { code, state, iss }) // "http://127.0.0.1:5312/cb?code=…&state=…&iss=…"
 */
export function clientRedirect(redirectUri: string, params: Record<string, string | null | undefined>): string {
  const url = new URL(redirectUri);
  for (const [key, value] of Object.entries(params)) if (value != null) url.searchParams.append(key, value);
  return url.href;
}

/** An authorization error sent back to the client (the client and redirect URI were valid). */
export class RedirectError extends Error {
  override name = "RedirectError";
  readonly error: string;
  constructor(error: string, description: string) {
    super(description);
    this.error = error;
  }
}
