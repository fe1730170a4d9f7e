/**
 * What the gateway adds to every answer (issue 7, "Headers"): HSTS (two years, subdomains; no
 * `preload`, which is a commitment to the browsers' lists that belongs to whoever owns the domain)
 * and `nosniff`. Browsers ignore HSTS over plain HTTP, so local and test runs are unaffected; in
 * production TLS ends at the load balancer in front of the gateway, so the gateway is where it is set.
 * A service's own values of these are replaced, never relayed beside them.
 */
export const SECURITY_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  "strict-transport-security": "max-age=63072000; includeSubDomains",
  "x-content-type-options": "nosniff",
});

/**
 * On every authenticated answer, and on any answer of the gateway's own (problems, refusals) or of a
 * public route that does not say otherwise: an answer that carries a caller's data or a token
 * (sign-in, refresh, OAuth token) must never be stored by a browser or a shared cache.
 */
export const NO_STORE = "no-store";

/** The headers of answers the gateway writes itself (problems, malformed requests). */
export const OWN_ANSWER_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  ...SECURITY_HEADERS,
  "cache-control": NO_STORE,
});

/** SECURITY_HEADERS as Node's flat `[name, value, …]` list, for the relay's head. */
export const SECURITY_HEADER_LIST: readonly string[] = Object.entries(SECURITY_HEADERS).flat();
