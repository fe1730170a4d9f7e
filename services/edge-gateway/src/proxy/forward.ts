import { Readable } from "node:stream";
import { INVALIDATE_HEADER } from "@flowstate/contracts/internal/identity";
import { DomainError } from "@flowstate/shared/errors/domain-error";
import type { Dispatcher } from "undici";
import { relayedHeaders } from "./headers.ts";

export interface ForwardRequest {
  method: string;
  /** The path and query exactly as the client sent them. */
  path: string;
  /** Flat `[name, value, …]`, already filtered (see upstreamHeaders). */
  headers: string[];
  body: Readable | Uint8Array | null;
  requestId: string;
  /** HEAD is answered with the GET route's headers and no body (Hono maps HEAD onto GET). */
  head?: boolean;
}

export interface ForwardHooks {
  /** Called synchronously with the upstream's `flowstate-invalidate` value, before anything is relayed. */
  onInvalidate: (value: string) => void;
}

/** Answers up to this size are read whole and written in one go; larger ones are streamed. */
const BUFFER_LIMIT = 256 * 1024;

export const upstreamUnavailable = (cause?: unknown) =>
  new DomainError("unavailable", "UPSTREAM_UNAVAILABLE", "the service behind this route is unavailable; retry shortly", {
    retryAfter: 1,
    cause,
  });

/**
 * Sends one request to a service over a keep-alive pool and turns its answer into the client's.
 * The body is streamed through untouched (never parsed); small answers are buffered so the node
 * server writes them with a single `end()`. The invalidation header is applied before the answer
 * exists, which is what makes "no request accepted after the revoking call returns" hold for
 * calls through this instance.
 *
 * @example
 * return forward(pool, { method: "GET", path: "/v1/tenants/tnt_x", headers, body: null, requestId }, hooks);
 */
export async function forward(pool: Dispatcher, req: ForwardRequest, hooks: ForwardHooks): Promise<Response> {
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
  const headers = relayedHeaders(answer.headers, req.requestId);
  const status = answer.statusCode;
  if (req.head || status === 204 || status === 304) {
    await answer.body.dump();
    return new Response(null, { status, headers });
  }
  const length = Number(answer.headers["content-length"]);
  if (length <= BUFFER_LIMIT) {
    try {
      return new Response(new Uint8Array(await answer.body.arrayBuffer()), { status, headers });
    } catch (err) {
      throw upstreamUnavailable(err);
    }
  }
  return new Response(Readable.toWeb(answer.body) as ReadableStream, { status, headers });
}
