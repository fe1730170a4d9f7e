import type { IncomingMessage, ServerResponse } from "node:http";
import { pipeline } from "node:stream/promises";
import { INVALIDATE_HEADER } from "@flowstate/contracts/internal/identity";
import { DomainError } from "@flowstate/shared/errors/domain-error";
import type { Dispatcher } from "undici";
import { relayedHeaders } from "./headers.ts";

export interface ForwardRequest {
  method: string;
  /** The path and query as the gateway's own node-server normalised them (see gateway-fetch.ts). */
  path: string;
  /** Flat `[name, value, …]`, already filtered (see upstreamHeaders). */
  headers: string[];
  body: IncomingMessage | Buffer | null;
  requestId: string;
  /** Called before a 2xx answer is relayed (a tenant write drops cached memberships, see proxy-route.ts). */
  onSuccess?: (() => void) | undefined;
}

export interface ForwardHooks {
  /** Called synchronously with the upstream's `flowstate-invalidate` value, before anything is relayed. */
  onInvalidate: (value: string) => void;
}

/** Answers up to this size are read whole and written with the head in one syscall; larger ones are streamed. */
const BUFFER_LIMIT = 256 * 1024;

export const upstreamUnavailable = (cause?: unknown) =>
  new DomainError("unavailable", "UPSTREAM_UNAVAILABLE", "the service behind this route is unavailable; retry shortly", {
    retryAfter: 1,
    cause,
  });

/**
 * Sends one request to a service over its keep-alive pool and writes the answer straight onto
 * the client's Node response: no WHATWG Request/Response objects, no body parsing. The
 * invalidation header is applied before a byte of the answer is written, which is what makes "no
 * request accepted after the revoking call returns" hold for calls through this instance.
 * Returns the status relayed. Throws (nothing written yet) when the service cannot be reached.
 *
 * @example
 * const status = await forward(pool, { method: "GET", path: "/v1/tenants/tnt_x", headers, body: null, requestId }, res, hooks);
 */
export async function forward(pool: Dispatcher, req: ForwardRequest, res: ServerResponse, hooks: ForwardHooks): Promise<number> {
  let answer: Dispatcher.ResponseData;
  try {
    answer = await pool.request({ method: req.method as Dispatcher.HttpMethod, path: req.path, headers: req.headers, body: req.body });
  } catch (err) {
    if ((err as { code?: string }).code === "UND_ERR_REQ_CONTENT_LENGTH_MISMATCH") {
      throw new DomainError("invalid", "BAD_REQUEST", "the request body does not match its Content-Length", { cause: err });
    }
    throw upstreamUnavailable(err);
  }
  const invalidate = answer.headers[INVALIDATE_HEADER];
  if (invalidate !== undefined) {
    for (const value of Array.isArray(invalidate) ? invalidate : [invalidate]) hooks.onInvalidate(value);
  }
  const status = answer.statusCode;
  if (status < 300 && req.onSuccess) req.onSuccess();
  const headers = relayedHeaders(answer.headers, req.requestId);
  if (req.method === "HEAD" || status === 204 || status === 304) {
    await answer.body.dump();
    res.writeHead(status, headers).end();
    return status;
  }
  if (Number(answer.headers["content-length"]) <= BUFFER_LIMIT) {
    let body: Buffer;
    try {
      body = Buffer.from(await answer.body.arrayBuffer());
    } catch (err) {
      throw upstreamUnavailable(err);
    }
    res.writeHead(status, headers).end(body);
    return status;
  }
  res.writeHead(status, headers);
  // The head is out: a failure now can only cut the connection, which tells the client it is incomplete.
  await pipeline(answer.body, res).catch(() => res.destroy());
  return status;
}
