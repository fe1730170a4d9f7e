import { createHash, createHmac, timingSafeEqual } from "node:crypto";
import { Channel, TenantContext, VerifiedIdentity } from "@flowstate/contracts/internal/identity";
import { z } from "zod";

/**
 * How a service knows a request really came through the gateway, and that it is the request the
 * gateway checked: the gateway signs the verified identity together with the method, the full
 * request target (path and query, exactly as sent), the SHA-256 of the body and a timestamp, with a
 * key only it and the services hold (Secrets Manager in production). A caller that reaches a
 * service directly cannot forge one; a captured header cannot be replayed with another body,
 * another query, on another route, or after MAX_SKEW_MS (ADR 0002).
 * HMAC rather than a JWT per hop: it costs microseconds on the hot path.
 *
 * Format `v3.<issued ms>.<base64url JSON {identity, tenant?}>.<base64url HMAC-SHA256>`, the MAC over
 * `v3\n<issued>\n<METHOD>\n<target>\n<base64url SHA-256 of the body>\n<payload>` (a request target never
 * holds a newline, so the fields split one way only). The request id is not signed (it travels
 * in `x-request-id`): a bodyless request by one caller yields the same header within a second,
 * which the gateway reuses and services verify once (assertion-cache.ts).
 */
export const IDENTITY_HEADER = "flowstate-identity";
/**
 * How far an assertion's timestamp may be from the verifier's clock, either way. A few seconds:
 * the gateway signs just before it sends, the hop is a LAN hop, and hosts run NTP (skew in ms).
 */
export const MAX_SKEW_MS = 5_000;
/**
 * How long past its window a genuine assertion still counts as *held on its way* rather than
 * replayed (issue 20): a request the gateway relayed into a stalled service (SIGSTOP, a long GC,
 * a saturated event loop) reaches the handler with an assertion older than MAX_SKEW_MS although
 * nobody replayed it. Such a request is refused like any aged one (nothing is done) but answered
 * 503 with Retry-After, the slow upstream it is, instead of a 401 that sends the client to sign in
 * again. Covers the gateways' relay timeouts (10 s) with room; an older one is refused with 401.
 */
export const MAX_HELD_MS = 30_000;
const VERSION = "v3";

/**
 * `channel` is set by the gateways for every caller they forward (edge-gateway `rest`,
 * mcp-gateway `mcp`); a platform component's own lookups (`service` identity) carry none.
 */
export const Assertion = z.object({
  identity: VerifiedIdentity,
  tenant: TenantContext.optional(),
  channel: Channel.optional(),
});
export type Assertion = z.infer<typeof Assertion>;

/** What the assertion is bound to besides the identity: one request. */
export interface RequestBinding {
  /** Upper-case HTTP method. */
  method: string;
  /** The request target as sent on the wire: path and query (`/v1/x?a=1`), never the origin. */
  target: string;
  /** base64url SHA-256 of the body bytes; EMPTY_BODY_SHA256 for a request without a body. */
  bodySha256: string;
}

/** base64url SHA-256 of `bytes`. */
export const sha256Base64url = (bytes: Uint8Array | string) => createHash("sha256").update(bytes).digest("base64url");
/** The body hash of a request that has none (GET, HEAD, most DELETEs). */
export const EMPTY_BODY_SHA256 = sha256Base64url("");

/** The request target (path and query) of an absolute URL string, without parsing it again. */
export const targetOf = (url: string) => url.slice(url.indexOf("/", url.indexOf("//") + 2));

/** A bodyless request's binding. */
export const bodyless = (method: string, target: string): RequestBinding => ({
  method,
  target,
  bodySha256: EMPTY_BODY_SHA256,
});

const mac = (secret: string, issued: string, b: RequestBinding, payload: string) =>
  createHmac("sha256", secret)
    .update(`${VERSION}\n${issued}\n${b.method.toUpperCase()}\n${b.target}\n${b.bodySha256}\n${payload}`)
    .digest("base64url");

/** The JSON of an assertion's payload (only its own fields, in a fixed order). */
export const payloadJson = (assertion: Assertion) =>
  JSON.stringify({ identity: assertion.identity, tenant: assertion.tenant, channel: assertion.channel });
/** The base64url payload of an assertion. */
export const encodePayload = (assertion: Assertion) => Buffer.from(payloadJson(assertion)).toString("base64url");

/**
 * @example
 * headers.set(IDENTITY_HEADER, signAssertion(secret, bodyless("GET", "/v1/tenants/tnt_x"), { identity, tenant }));
 */
export function signAssertion(secret: string, binding: RequestBinding, assertion: Assertion, now = Date.now()): string {
  return signPayload(secret, binding, encodePayload(assertion), now);
}

/** signAssertion with the payload already encoded (the gateway's cache key is the payload). */
export function signPayload(secret: string, binding: RequestBinding, payload: string, now = Date.now()): string {
  const issued = String(now);
  return `${VERSION}.${issued}.${payload}.${mac(secret, issued, binding, payload)}`;
}

/**
 * What a header says about this request: `valid` (genuine, fresh, bound to it), `held` (genuine and
 * bound to it, but issued between MAX_SKEW_MS and MAX_HELD_MS ago: refuse it, as a slow upstream),
 * or `invalid` (anything else: forged, tampered, another request, from the future, or older).
 */
export type HeaderCheck =
  | { status: "valid"; assertion: Assertion; issued: number }
  | { status: "held"; issued: number }
  | { status: "invalid" };

const INVALID: HeaderCheck = Object.freeze({ status: "invalid" });

/** Classifies a header (see HeaderCheck). The MAC is checked before anything is believed of it. */
export function checkAssertionHeader(
  secret: string,
  binding: RequestBinding,
  header: string | undefined | null,
  now = Date.now(),
): HeaderCheck {
  if (!header) return INVALID;
  const [v, ts, payload, sig, extra] = header.split(".");
  if (v !== VERSION || !ts || !payload || !sig || extra !== undefined) return INVALID;
  const issued = Number(ts);
  if (!Number.isSafeInteger(issued) || String(issued) !== ts) return INVALID;
  const age = now - issued;
  // Only the past can be a delay; a timestamp from beyond the window ahead is a wrong clock or a forgery.
  if (age < -MAX_SKEW_MS || age > MAX_SKEW_MS + MAX_HELD_MS) return INVALID;
  const expected = Buffer.from(mac(secret, ts, binding, payload));
  const given = Buffer.from(sig);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return INVALID;
  if (age > MAX_SKEW_MS) return { status: "held", issued };
  try {
    const parsed = Assertion.safeParse(JSON.parse(Buffer.from(payload, "base64url").toString()));
    return parsed.success ? { status: "valid", assertion: parsed.data, issued } : INVALID;
  } catch {
    return INVALID;
  }
}

/** The verified header's assertion and timestamp, or null when it is not genuine, fresh and bound to this request. */
export function verifyAssertionHeader(
  secret: string,
  binding: RequestBinding,
  header: string | undefined | null,
  now = Date.now(),
): { assertion: Assertion; issued: number } | null {
  const checked = checkAssertionHeader(secret, binding, header, now);
  return checked.status === "valid" ? { assertion: checked.assertion, issued: checked.issued } : null;
}

/** Returns the assertion when the header is genuine, fresh and bound to this request; null otherwise. */
export function verifyAssertion(
  secret: string,
  binding: RequestBinding,
  header: string | undefined | null,
  now = Date.now(),
): Assertion | null {
  return verifyAssertionHeader(secret, binding, header, now)?.assertion ?? null;
}
