import type { MiddlewareHandler } from "hono";
import { routePath } from "hono/route";
import { lazyChild } from "../log/lazy-child.ts";
import type { Logger } from "../log/logger.ts";
import { recordRequest } from "./access-log.ts";
import { bodyLimit } from "./body-limit.ts";
import { onError } from "./error-handler.ts";
import type { MetricsRegistry } from "./metrics.ts";
import { rawHeader, setResponseHeader } from "./raw-header.ts";
import { requestIdFrom } from "./request-id.ts";
import type { ServiceEnv } from "./types.ts";

/** Route label for requests no route matched: raw paths would make metric cardinality unbounded. */
export const UNMATCHED_ROUTE = "(unmatched)";

/**
 * The first middleware of every service app: request id (echoed as `x-request-id`), the app's
 * fixed response headers (a handler's own value wins), a child
 * logger bound to it, the body limit, then after the handler the access record (recordRequest:
 * one metric, one log line; a 5xx's cause is `c.error`, set by Hono before onError runs).
 */
export function requestContext(
  logger: Logger,
  metrics: MetricsRegistry,
  bodyLimitBytes: number,
  responseHeaders: Readonly<Record<string, string>> = {},
): MiddlewareHandler<ServiceEnv> {
  const fixed = Object.entries(responseHeaders);
  // Called in place of next() rather than registered as a second middleware: one less compose step per request.
  const limitBody = bodyLimit(bodyLimitBytes);
  return async function requestContext(c, next) {
    const started = performance.now();
    const requestId = requestIdFrom(rawHeader(c, "x-request-id"));
    c.set("requestId", requestId);
    c.set("logger", lazyChild(logger, { request_id: requestId }));
    setResponseHeader(c, "x-request-id", requestId);
    for (const [name, value] of fixed) setResponseHeader(c, name, value);
    try {
      await limitBody(c, next);
    } catch (err) {
      // Hono hands only Error instances to onError; anything else thrown (a string, an object)
      // would escape as a bare 500 from the adapter, without our body, log line or metric.
      c.error = err instanceof Error ? err : new Error("non-Error value thrown", { cause: err });
      c.res = onError(c.error, c);
    }

    const route = routeOf(routePath(c));
    recordRequest(logger, metrics, {
      requestId,
      method: c.req.method,
      route,
      status: c.res.status,
      started,
      error: c.error,
    });
  };
}

// After next(), Hono's routeIndex points at the last handler that ran; if that is this middleware
// ("*"), no route matched.
const routeOf = (path: string) => (path === "*" || path === "/*" ? UNMATCHED_ROUTE : path);
