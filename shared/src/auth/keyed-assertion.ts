import { createHmac, timingSafeEqual } from "node:crypto";
import { Assertion, type HeaderCheck, MAX_HELD_MS, MAX_SKEW_MS, type RequestBinding } from "./identity-assertion.ts";

/**
 * The identity assertion on the wire (ADR 0014; what it asserts and binds: identity-assertion.ts).
 * It names its signer, so a verifier that holds one key per signer knows which key to check it
 * with. The one-key v3 format it replaced is refused everywhere (nothing signs it any more).
 *
 * Format `v4.<kid>.<issued ms>.<base64url JSON {identity, tenant?, channel?}>.<base64url HMAC-SHA256>`,
 * the MAC over `v4\n<kid>\n<issued>\n<METHOD>\n<target>\n<body SHA-256>\n<payload>`. The kid is
 * signed too: a header cannot be re-labelled to another signer's key. A kid is `gateway` or a
 * service name (`[a-z-]`), so it holds neither a dot nor a newline and the fields split one way.
 */
const VERSION = "v4";
const KID = /^[a-z][a-z-]*$/;

const mac = (key: string, kid: string, issued: string, b: RequestBinding, payload: string) =>
  createHmac("sha256", key)
    .update(`${VERSION}\n${kid}\n${issued}\n${b.method.toUpperCase()}\n${b.target}\n${b.bodySha256}\n${payload}`)
    .digest("base64url");

/** A v4 header signed by `kid` with `key` (the signer's current key of the pair). */
export function signKeyedPayload(key: string, kid: string, binding: RequestBinding, payload: string, now = Date.now()) {
  if (!KID.test(kid)) throw new Error(`not a key id: ${kid}`);
  const issued = String(now);
  return `${VERSION}.${kid}.${issued}.${payload}.${mac(key, kid, issued, binding, payload)}`;
}

/** The signer a v4 header names, unverified (only to pick the key); undefined for anything else. */
export function kidOf(header: string | undefined | null): string | undefined {
  if (!header?.startsWith(`${VERSION}.`)) return undefined;
  const kid = header.slice(VERSION.length + 1, header.indexOf(".", VERSION.length + 1));
  return KID.test(kid) ? kid : undefined;
}

const INVALID: HeaderCheck = Object.freeze({ status: "invalid" });

/**
 * Classifies a header (HeaderCheck) against the keys of its signer's pair (current first, then the
 * previous one while a rotation is under way). The MAC is checked before anything is believed of
 * the header; only the past can be a delay, so a timestamp beyond the window ahead is a wrong
 * clock or a forgery.
 */
export function checkKeyedHeader(
  keys: readonly string[],
  binding: RequestBinding,
  header: string,
  now = Date.now(),
): HeaderCheck {
  const [v, kid, ts, payload, sig, extra] = header.split(".");
  if (v !== VERSION || !kid || !ts || !payload || !sig || extra !== undefined) return INVALID;
  const issued = Number(ts);
  if (!Number.isSafeInteger(issued) || String(issued) !== ts) return INVALID;
  const age = now - issued;
  if (age < -MAX_SKEW_MS || age > MAX_SKEW_MS + MAX_HELD_MS) return INVALID;
  const given = Buffer.from(sig);
  const genuine = keys.some((key) => {
    const expected = Buffer.from(mac(key, kid, ts, binding, payload));
    return expected.length === given.length && timingSafeEqual(expected, given);
  });
  if (!genuine) return INVALID;
  if (age > MAX_SKEW_MS) return { status: "held", issued };
  try {
    const parsed = Assertion.safeParse(JSON.parse(Buffer.from(payload, "base64url").toString()));
    return parsed.success ? { status: "valid", assertion: parsed.data, issued } : INVALID;
  } catch {
    return INVALID;
  }
}
