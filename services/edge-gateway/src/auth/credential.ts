/** What the caller presented, classified without verifying anything. */
export type Credential =
  | { kind: "none" }
  | { kind: "access_token"; token: string }
  | { kind: "api_key"; key: string }
  | { kind: "malformed" };

const NONE: Credential = { kind: "none" };
const MALFORMED: Credential = { kind: "malformed" };
/** identity-svc's key format: `fs_<key id suffix>_<43 base64url chars>` (a visible prefix for secret scanners). */
const API_KEY = /^fs_[0-9A-Za-z]{10,40}_[A-Za-z0-9_-]{43}$/;
/** Longer than any token or key identity-svc issues; refused before any parsing. */
const MAX_CREDENTIAL = 4096;

/**
 * `Authorization: Bearer <access token | API key>` (RFC 6750). Both kinds travel the same way, as
 * the API docs say; the shape tells them apart: a JWT is three dot-separated parts, an API key
 * starts with `fs_`. Anything else presented is malformed (401), never treated as anonymous.
 *
 * @example
 * credentialOf("Bearer eyJhbGciOi…") // { kind: "access_token", token: "eyJhbGciOi…" }
 */
export function credentialOf(authorization: string | undefined): Credential {
  if (authorization === undefined || authorization === "") return NONE;
  if (authorization.length > MAX_CREDENTIAL || authorization.length < 8) return MALFORMED;
  if (authorization.slice(0, 7).toLowerCase() !== "bearer ") return MALFORMED;
  const value = authorization.slice(7).trim();
  if (API_KEY.test(value)) return { kind: "api_key", key: value };
  const firstDot = value.indexOf(".");
  const lastDot = value.lastIndexOf(".");
  if (
    firstDot > 0 &&
    lastDot > firstDot + 1 &&
    lastDot < value.length - 1 &&
    value.indexOf(".", firstDot + 1) === lastDot
  ) {
    return { kind: "access_token", token: value };
  }
  return MALFORMED;
}
