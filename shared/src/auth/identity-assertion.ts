import { createHmac, timingSafeEqual } from "node:crypto";
import { Channel, TenantContext, VerifiedIdentity } from "@flowstate/contracts/internal/identity";
import { z } from "zod";

/**
 * How a service knows a request really came through the gateway: the gateway signs the verified
 * identity, the method, the path and a timestamp with a key only it and the services hold
 * (Secrets Manager in production). A caller that reaches a service directly cannot forge it, and a
 * captured header cannot be replayed on another route or after the freshness window.
 * HMAC rather than a JWT per hop: it costs microseconds on the hot path.
 *
 * Format `v2.<issued ms>.<base64url JSON {identity, tenant?}>.<base64url HMAC-SHA256>`, the MAC over
 * `v2.<issued>.<METHOD>.<path>.<payload>`. The request id is not signed (it travels in
 * `x-request-id`): so the same (identity, tenant, method, path) yields the same header within a
 * second, which the gateway reuses and services verify once (assertion-cache.ts).
 */
export const IDENTITY_HEADER = "flowstate-identity";
/** How far an assertion's timestamp may be from the verifier's clock, either way. */
export const MAX_SKEW_MS = 30_000;
const VERSION = "v2";

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

const mac = (secret: string, parts: string) => createHmac("sha256", secret).update(parts).digest("base64url");

/** The JSON of an assertion's payload (only its own fields, in a fixed order). */
export const payloadJson = (assertion: Assertion) =>
  JSON.stringify({ identity: assertion.identity, tenant: assertion.tenant, channel: assertion.channel });
/** The base64url payload of an assertion. */
export const encodePayload = (assertion: Assertion) => Buffer.from(payloadJson(assertion)).toString("base64url");

/**
 * @example
 * headers.set(IDENTITY_HEADER, signAssertion(secret, "GET", "/v1/tenants/tnt_x", { identity, tenant }));
 */
export function signAssertion(
  secret: string,
  method: string,
  path: string,
  assertion: Assertion,
  now = Date.now(),
): string {
  return signPayload(secret, method, path, encodePayload(assertion), now);
}

/** signAssertion with the payload already encoded (the gateway's cache key is the payload). */
export function signPayload(secret: string, method: string, path: string, payload: string, now = Date.now()): string {
  return `${VERSION}.${now}.${payload}.${mac(secret, `${VERSION}.${now}.${method.toUpperCase()}.${path}.${payload}`)}`;
}

/** The verified header's assertion and timestamp, or null when it is not genuine, fresh and bound to this method and path. */
export function verifyAssertionHeader(
  secret: string,
  method: string,
  path: string,
  header: string | undefined | null,
  now = Date.now(),
): { assertion: Assertion; issued: number } | null {
  if (!header) return null;
  const [v, ts, payload, sig, extra] = header.split(".");
  if (v !== VERSION || !ts || !payload || !sig || extra !== undefined) return null;
  const issued = Number(ts);
  if (!Number.isSafeInteger(issued) || Math.abs(now - issued) > MAX_SKEW_MS) return null;
  const expected = Buffer.from(mac(secret, `${VERSION}.${ts}.${method.toUpperCase()}.${path}.${payload}`));
  const given = Buffer.from(sig);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return null;
  try {
    const parsed = Assertion.safeParse(JSON.parse(Buffer.from(payload, "base64url").toString()));
    return parsed.success ? { assertion: parsed.data, issued } : null;
  } catch {
    return null;
  }
}

/** Returns the assertion when the header is genuine, fresh and bound to this method and path; null otherwise. */
export function verifyAssertion(
  secret: string,
  method: string,
  path: string,
  header: string | undefined | null,
  now = Date.now(),
): Assertion | null {
  return verifyAssertionHeader(secret, method, path, header, now)?.assertion ?? null;
}
