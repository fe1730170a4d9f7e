import type { Context } from "hono";
import type { ReceivedRequest } from "../sigv4/verify.ts";

/**
 * The request as it arrived, for SigV4 (raw path and query, exact body bytes). Reading the body
 * here once also serves the handlers, which parse `text` themselves.
 */
export async function receive(c: Context): Promise<ReceivedRequest & { text: string }> {
  const url = c.req.url;
  const pathStart = url.indexOf("/", url.indexOf("//") + 2);
  const q = url.indexOf("?", pathStart);
  const body = new Uint8Array(await c.req.arrayBuffer());
  return {
    method: c.req.method,
    rawPath: q < 0 ? url.slice(pathStart) : url.slice(pathStart, q),
    rawQuery: q < 0 ? "" : url.slice(q + 1),
    header: (name) => c.req.header(name),
    body,
    text: new TextDecoder().decode(body),
  };
}
