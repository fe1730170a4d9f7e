import { createHash } from "node:crypto";
import { Channel, TenantContext, VerifiedIdentity } from "@flowstate/contracts/internal/identity";
import { z } from "zod";

/**
 * How a service knows a request really came through a door, or from the platform component it
 * names, and that it is the request that was checked: the signer binds the verified identity to
 * the method, the full request target (path and query, exactly as sent), the SHA-256 of the body
 * and a timestamp, with the key of its pair with the callee (ADR 0014, keyring.ts). A caller that
 * reaches a service directly cannot forge one; a captured header cannot be replayed with another
 * body, another query, on another route, or after MAX_SKEW_MS (ADR 0002).
 * HMAC rather than a JWT per hop: it costs microseconds on the hot path.
 *
 * This module holds what any signed header is about (the assertion, the request it is bound to,
 * the time window); the wire format and its MAC are keyed-assertion.ts's. The request id is not
 * signed (it travels in `x-request-id`): a bodyless request by one caller yields the same header
 * within a second, which the doors reuse and services verify once (assertion-cache.ts).
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

/** The JSON of an assertion's payload (only its own fields, in a fixed order). */
export const payloadJson = (assertion: Assertion) =>
  JSON.stringify({ identity: assertion.identity, tenant: assertion.tenant, channel: assertion.channel });
/** The base64url payload of an assertion. */
export const encodePayload = (assertion: Assertion) => Buffer.from(payloadJson(assertion)).toString("base64url");

/**
 * What a header says about this request: `valid` (genuine, fresh, bound to it), `held` (genuine and
 * bound to it, but issued between MAX_SKEW_MS and MAX_HELD_MS ago: refuse it, as a slow upstream),
 * or `invalid` (anything else: forged, tampered, another request, from the future, or older).
 */
export type HeaderCheck =
  | { status: "valid"; assertion: Assertion; issued: number }
  | { status: "held"; issued: number }
  | { status: "invalid" };
