import type { HttpBindings } from "@hono/node-server";
import type { Context } from "hono";

/**
 * Reads a request header without building a WHATWG Headers object. Under @hono/node-server the
 * request is a lazy wrapper, and the first `c.req.header()` copies every incoming header into a
 * Headers instance: measurable on /healthz. In `app.request()` tests there is no Node request.
 */
export function rawHeader(c: Context, name: string): string | undefined {
  const incoming = (c.env as Partial<HttpBindings> | undefined)?.incoming;
  if (!incoming) return c.req.header(name);
  const value = incoming.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/**
 * Sets a response header. On Node it goes straight onto the ServerResponse (Node merges it with
 * the headers the adapter writes later, and a header set by the handler wins); otherwise onto the
 * context's response headers.
 */
export function setResponseHeader(c: Context, name: string, value: string): void {
  const outgoing = (c.env as Partial<HttpBindings> | undefined)?.outgoing;
  if (outgoing && !outgoing.headersSent) outgoing.setHeader(name, value);
  else c.header(name, value);
}
