/**
 * What must never reach a log line, by key name. pino's redaction (@pinojs/redact) has no
 * recursive wildcard, so each key is listed at depths 0 to 3 (`key`, `*.key`, `*.*.key`,
 * `*.*.*.key`): that covers `req.headers.authorization`, `{ user: { password } }` and AWS
 * `{ Credentials: { SessionToken } }` while the path set stays compiled once at boot. Arrays
 * count as a level (`items.*.password`). Deeper values or secrets inside strings are not caught:
 * log ids, not payloads.
 */
export const REDACTED_KEYS = [
  // HTTP credentials, in Node's lower case and in the casing of hand-built header objects
  "authorization",
  "Authorization",
  "proxy-authorization",
  "cookie",
  "Cookie",
  "set-cookie",
  "Set-Cookie",
  "x-api-key",
  "flowstate-identity", // the gateway's signed identity assertion: replayable for 30 s
  // tokens (OAuth, JWT, AWS session credentials)
  "token",
  "access_token",
  "accessToken",
  "refresh_token",
  "refreshToken",
  "id_token",
  "idToken",
  "session_token",
  "sessionToken",
  "SessionToken",
  "api_key",
  "apiKey",
  "key",
  // secrets and passwords
  "secret",
  "client_secret",
  "clientSecret",
  "SecretString",
  "SecretAccessKey",
  "secretAccessKey",
  "private_key",
  "privateKey",
  "password",
  "new_password",
  "current_password",
  "passwd",
  // the connector's external ID is a confused-deputy guard and is never logged (decisions.md)
  "external_id",
  "externalId",
  "ExternalId",
] as const;

const DEPTHS = ["", "*.", "*.*.", "*.*.*."];

/** A key as a redact path segment: dotted when it is an identifier, bracketed otherwise. */
const segment = (key: string, first: boolean) =>
  /^[A-Za-z_$][\w$]*$/.test(key) ? (first ? key : `.${key}`) : `["${key}"]`;

/** Every redaction path handed to pino; exported so tests can assert the list is what we think. */
export const REDACT_PATHS: string[] = DEPTHS.flatMap((prefix) =>
  REDACTED_KEYS.map((key) => (prefix ? `${prefix.slice(0, -1)}${segment(key, false)}` : segment(key, true))),
);

export const CENSOR = "[redacted]";
