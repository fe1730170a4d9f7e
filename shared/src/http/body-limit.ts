import type { HttpBindings } from "@hono/node-server";
import type { MiddlewareHandler } from "hono";
import { bodyLimit as countingBodyLimit } from "hono/body-limit";
import { HttpProblem } from "./http-problem.ts";
import { rawHeader } from "./raw-header.ts";
import type { ServiceEnv } from "./types.ts";

/**
 * Refuses bodies over `maxBytes` with 413 PAYLOAD_TOO_LARGE. A declared Content-Length is checked
 * up front (Node's parser never delivers more than it declares); chunked uploads are counted as
 * they stream, by Hono's body-limit. Bodyless requests cost two header reads: touching
 * `c.req.raw.body` would materialise a full Request under @hono/node-server.
 */
export function bodyLimit(maxBytes: number): MiddlewareHandler<ServiceEnv> {
  const tooLarge = () => {
    throw new HttpProblem("PAYLOAD_TOO_LARGE", `the request body exceeds ${maxBytes} bytes`);
  };
  const counting = countingBodyLimit({ maxSize: maxBytes, onError: tooLarge });
  // Not async: GET and HEAD pass straight to next() without an extra promise (hot path).
  return function bodyLimit(c, next) {
    const method = c.req.method;
    if (method === "GET" || method === "HEAD") return next();
    const length = rawHeader(c, "content-length");
    if (length !== undefined && rawHeader(c, "transfer-encoding") === undefined) {
      if (Number(length) > maxBytes) tooLarge();
      return next();
    }
    // On Node over HTTP/1.1 a body needs Content-Length or Transfer-Encoding; elsewhere (app.request,
    // other runtimes) the Request is a real one and asking for its body is cheap.
    const onNode = (c.env as Partial<HttpBindings> | undefined)?.incoming !== undefined;
    if (onNode && rawHeader(c, "transfer-encoding") === undefined) return next();
    return c.req.raw.body ? counting(c, next) : next();
  };
}
