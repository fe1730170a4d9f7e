import type { HttpBindings } from "@hono/node-server";
import type { Context } from "hono";

/**
 * Whether a request carries a body at all. On Node it is decided from the headers without
 * touching the stream (a body needs Content-Length or Transfer-Encoding on HTTP/1.1); under
 * `app.request()` the Request is a real one and its `body` says.
 *
 * @example
 * if (hasBody(c)) await c.req.arrayBuffer();
 */
export function hasBody(c: Context): boolean {
  const incoming = (c.env as Partial<HttpBindings> | undefined)?.incoming;
  if (!incoming) return c.req.raw.body !== null;
  const length = incoming.headers["content-length"];
  return (length !== undefined && length !== "0") || incoming.headers["transfer-encoding"] !== undefined;
}
