import { DomainError } from "@flowstate/shared/errors/domain-error";
import type { ResponseSink } from "@flowstate/shared/http/access-log";
import type { Dispatcher } from "undici";
import { RelayHandler } from "./relay-handler.ts";
import type { Upstream } from "./upstreams.ts";

export interface ForwardRequest {
  method: string;
  /** The path and query as the gateway's own node-server normalised them (see gateway-fetch.ts). */
  path: string;
  /** Flat `[name, value, …]`, already filtered (see upstreamHeaders). */
  headers: string[];
  /** Read whole by the route (its hash is signed); null for a bodyless request. */
  body: Buffer | null;
  requestId: string;
  /** An authenticated caller's request: the answer is no-store whatever the service says (RelayOptions). */
  authenticated: boolean;
}

export interface ForwardHooks {
  /** Called synchronously with the upstream's `flowstate-invalidate` value, before anything is relayed. */
  onInvalidate: (value: string) => void;
}

/**
 * Sends one request to a service over its keep-alive pool and writes the answer straight onto
 * the client's Node response: no WHATWG Request/Response objects, no body parsing (see
 * RelayHandler). The invalidation header is applied before a byte of the answer is written,
 * which is what makes "no request accepted after the revoking call returns" hold for calls
 * through this instance. Resolves with the status relayed; rejects (nothing written yet) when the
 * service cannot be reached or the client's body does not match its Content-Length. An answer,
 * whatever its status, counts as a success for the service's circuit breaker, no answer (refused,
 * reset, timed out) as a failure; the caller checked `breaker.admit()` before reading the body.
 *
 * @example
 * const status = await forward(upstream, { method: "GET", path: "/v1/tenants/tnt_x", headers, body: null, requestId }, res, hooks);
 */
export function forward(
  upstream: Pick<Upstream, "pool" | "breaker">,
  req: ForwardRequest,
  res: ResponseSink,
  hooks: ForwardHooks,
): Promise<number> {
  const { pool, breaker } = upstream;
  return new Promise((resolve, reject) => {
    const handler = new RelayHandler({
      res,
      requestId: req.requestId,
      head: req.method === "HEAD",
      authenticated: req.authenticated,
      onInvalidate: hooks.onInvalidate,
      resolve: (status) => {
        breaker.succeeded();
        resolve(status);
      },
      reject: (err) => {
        if ((err as { code?: string }).code === "UND_ERR_REQ_CONTENT_LENGTH_MISMATCH") {
          reject(
            new DomainError("invalid", "BAD_REQUEST", "the request body does not match its Content-Length", {
              cause: err,
            }),
          );
        } else {
          breaker.failed(err);
          reject(breaker.unavailable(err));
        }
      },
    });
    pool.dispatch(
      { method: req.method as Dispatcher.HttpMethod, path: req.path, headers: req.headers, body: req.body },
      handler as unknown as Dispatcher.DispatchHandler,
    );
  });
}
