import { createHmac, timingSafeEqual } from "node:crypto";
import { TenantContext, VerifiedIdentity } from "@flowstate/contracts/internal/identity";
import { z } from "zod";

/**
 * How a service knows a request really came through the gateway: the gateway signs the verified
 * identity, the method, the path and a timestamp with a key only it and the services hold
 * (Secrets Manager in production). A caller that reaches a service directly cannot forge it, and a
 * captured header cannot be replayed on another route or after the freshness window.
 * HMAC rather than a JWT per hop: it costs microseconds on the hot path.
 */
export const IDENTITY_HEADER = "flowstate-identity";
const MAX_SKEW_MS = 30_000;

const Assertion = z.object({ identity: VerifiedIdentity, tenant: TenantContext.optional(), request_id: z.string() });
export type Assertion = z.infer<typeof Assertion>;

const b64 = (s: string) => Buffer.from(s).toString("base64url");
const mac = (secret: string, parts: string) => createHmac("sha256", secret).update(parts).digest("base64url");

/**
 * @example
 * headers.set(IDENTITY_HEADER, signAssertion(secret, "GET", "/v1/tenants/tnt_x", { identity, request_id }));
 */
export function signAssertion(secret: string, method: string, path: string, assertion: Assertion, now = Date.now()): string {
  const payload = b64(JSON.stringify(assertion));
  return `v1.${now}.${payload}.${mac(secret, `v1.${now}.${method.toUpperCase()}.${path}.${payload}`)}`;
}

/** Returns the assertion when the header is genuine, fresh and bound to this method and path; null otherwise. */
export function verifyAssertion(
  secret: string,
  method: string,
  path: string,
  header: string | undefined | null,
  now = Date.now(),
): Assertion | null {
  if (!header) return null;
  const [v, ts, payload, sig] = header.split(".");
  if (v !== "v1" || !ts || !payload || !sig) return null;
  const issued = Number(ts);
  if (!Number.isSafeInteger(issued) || Math.abs(now - issued) > MAX_SKEW_MS) return null;
  const expected = Buffer.from(mac(secret, `v1.${ts}.${method.toUpperCase()}.${path}.${payload}`));
  const given = Buffer.from(sig);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return null;
  try {
    const parsed = Assertion.safeParse(JSON.parse(Buffer.from(payload, "base64url").toString()));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}
