import type { ServerResponse } from "node:http";
import { DomainError } from "@flowstate/shared/errors/domain-error";
import type { Dispatcher } from "undici";
import { RelayHandler } from "./relay-handler.ts";

export interface ForwardRequest {
  method: string;
  /** The path and query as the gateway's own node-server normalised them (see gateway-fetch.ts). */
  path: string;
  /** Flat `[name, value, …]`, already filtered (see upstreamHeaders). */
  headers: string[];
  /** Read whole by the route (its hash is signed); null for a bodyless request. */
  body: Buffer | null;
  requestId: string;
  /** Called before a 2xx answer is relayed (a tenant write drops cached memberships, see proxy-route.ts). */
  onSuccess?: (() => void) | undefined;
}

export interface ForwardHooks {
  /** Called synchronously with the upstream's `flowstate-invalidate` value, before anything is relayed. */
  onInvalidate: (value: string) => void;
}

export const upstreamUnavailable = (cause?: unknown) =>
  new DomainError(
    "unavailable",
    "UPSTREAM_UNAVAILABLE",
    "the service behind this route is unavailable; retry shortly",
    {
      retryAfter: 1,
      cause,
    },
  );

/**
 * Sends one request to a service over its keep-alive pool and writes the answer straight onto
 * the client's Node response: no WHATWG Request/Response objects, no body parsing (see
 * RelayHandler). The invalidation header is applied before a byte of the answer is written,
 * which is what makes "no request accepted after the revoking call returns" hold for calls
 * through this instance. Resolves with the status relayed; rejects (nothing written yet) when the
 * service cannot be reached or the client's body does not match its Content-Length.
 *
 * @example
 * const status = await forward(pool, { method: "GET", path: "/v1/tenants/tnt_x", headers, body: null, requestId }, res, hooks);
 */
export function forward(
  pool: Dispatcher,
  req: ForwardRequest,
  res: ServerResponse,
  hooks: ForwardHooks,
): Promise<number> {
  return new Promise((resolve, reject) => {
    const handler = new RelayHandler({
      res,
      requestId: req.requestId,
      head: req.method === "HEAD",
      onInvalidate: hooks.onInvalidate,
      onSuccess: req.onSuccess,
      resolve,
      reject: (err) => {
        if ((err as { code?: string }).code === "UND_ERR_REQ_CONTENT_LENGTH_MISMATCH") {
          reject(
            new DomainError("invalid", "BAD_REQUEST", "the request body does not match its Content-Length", {
              cause: err,
            }),
          );
        } else reject(upstreamUnavailable(err));
      },
    });
    pool.dispatch(
      { method: req.method as Dispatcher.HttpMethod, path: req.path, headers: req.headers, body: req.body },
      handler as unknown as Dispatcher.DispatchHandler,
    );
  });
}
