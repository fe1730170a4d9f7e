import type { Context } from "hono";
import { hasBody } from "../http/has-body.ts";
import { bodyless, type RequestBinding, sha256Base64url, targetOf } from "./identity-assertion.ts";

/**
 * What a service checks the gateway's assertion against: this request's method, its target as it
 * arrived (path and query, from the URL @hono/node-server built, which is what the gateway sent),
 * and the SHA-256 of its body. The body is read through Hono's body cache, so the route that
 * parses it later reads the same bytes without a second pass over the stream. Runs after the
 * body limit (the app's first middleware), so the bytes hashed here are bounded.
 *
 * @example
 * const verified = verify(await requestBinding(c), rawHeader(c, IDENTITY_HEADER));
 */
export async function requestBinding(c: Context): Promise<RequestBinding> {
  const method = c.req.method;
  const target = targetOf(c.req.url);
  if (method === "GET" || method === "HEAD" || !hasBody(c)) return bodyless(method, target);
  return { method, target, bodySha256: sha256Base64url(new Uint8Array(await c.req.arrayBuffer())) };
}
