import pino from "pino";

/**
 * What must never reach a log line, by key name, at any depth. pino's own path-based redaction
 * was measured at ~150 µs per line with a wildcard path per key and depth (and ~24 µs per
 * `child()`), so instead one key test runs while walking the (small) logged object, copying only
 * the branches that change. Secrets inside free text are not caught: log ids, not payloads.
 *
 * Sensitive keys (case-insensitive): anything containing password/passwd, secret, token,
 * authorization, cookie, credential, private_key, api_key, external_id, session key material, plus
 * the exact key `key`. `*_id` names of secrets (SIGNING_KEYS_SECRET_ID) are redacted too: cheap
 * and harmless.
 */
const SENSITIVE =
  /passw|secret|token|authori[sz]ation|cookie|credential|private[-_]?key|api[-_]?key|external[-_]?id|signature|flowstate-identity|^key$/i;

export const CENSOR = "[redacted]";

/**
 * An e-mail address inside free text. Keys are the rule for what we log ourselves, but an error's
 * text is written by someone else: SES's MessageRejected names the addresses it refused, a driver's
 * error quotes the row. Serialised errors have every such address replaced by EMAIL_CENSOR.
 */
export const EMAIL = /[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}/g;
export const EMAIL_CENSOR = "[email]";

/** `value` (a serialised error) with every e-mail address in its strings censored, at any depth. */
function scrubEmails<T>(value: T, depth = 0): T {
  if (typeof value === "string") return value.replace(EMAIL, EMAIL_CENSOR) as T;
  if (value === null || typeof value !== "object" || depth > MAX_DEPTH) return value;
  if (Array.isArray(value)) return value.map((v) => scrubEmails(v, depth + 1)) as T;
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, scrubEmails(v, depth + 1)])) as T;
}

/** An error as a log line shows it: pino's serialised form, sensitive keys redacted, e-mail addresses censored. */
export const serialiseError = (err: Error, depth = 0) => scrubEmails(redact(pino.stdSerializers.err(err), depth));
const TOO_DEEP = "[too deep]";
const MAX_DEPTH = 10;

function walkable(value: object): boolean {
  if (ArrayBuffer.isView(value) || value instanceof Date || value instanceof RegExp) return false;
  // Objects with toJSON decide their own serialisation (Date, Decimal, ORM entities): JSON.stringify
  // would not use our copy's fields anyway, so walking them gives false comfort.
  return typeof (value as { toJSON?: unknown }).toJSON !== "function";
}

/**
 * Returns `value` with every sensitive key's value replaced by "[redacted]"; the input is never
 * mutated and is returned as-is when nothing needed redacting.
 *
 * @example
 * redact({ user: { id: "usr_1", password: "hunter22" } }) // { user: { id: "usr_1", password: "[redacted]" } }
 */
export function redact<T>(value: T, depth = 0): T {
  if (value === null || typeof value !== "object") return value;
  // Fail closed: what is too deep to inspect is not printed either.
  if (depth > MAX_DEPTH) return TOO_DEEP as T;
  // pino's err serializer only sees the top-level `err`; any other Error would be printed by
  // JSON.stringify as its enumerable fields (an SDK error's, a `client_secret` attached to it)
  // without message or stack. Serialise it the same way, then redact that.
  if (value instanceof Error) return serialiseError(value, depth) as T;
  if (Array.isArray(value)) {
    let out: unknown[] | undefined;
    for (let i = 0; i < value.length; i++) {
      const item = value[i];
      const next = redact(item, depth + 1);
      if (next !== item) {
        out ??= value.slice();
        out[i] = next;
      }
    }
    return (out ?? value) as T;
  }
  if (!walkable(value)) return value;
  let out: Record<string, unknown> | undefined;
  const record = value as Record<string, unknown>;
  for (const key in record) {
    const item = record[key];
    // The logged object's own `err` stays an Error for the err serializer, which redacts its output.
    if (depth === 0 && key === "err" && item instanceof Error) continue;
    const next = SENSITIVE.test(key) ? (item === undefined || item === null ? item : CENSOR) : redact(item, depth + 1);
    if (next !== item) {
      out ??= { ...record };
      out[key] = next;
    }
  }
  return (out ?? value) as T;
}
