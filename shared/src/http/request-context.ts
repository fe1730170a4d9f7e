import type { MiddlewareHandler } from "hono";
import { routePath } from "hono/route";
import { lazyChild } from "../log/lazy-child.ts";
import type { Logger } from "../log/logger.ts";
import { bodyLimit } from "./body-limit.ts";
import { onError } from "./error-handler.ts";
import type { MetricsRegistry } from "./metrics.ts";
import { rawHeader, setResponseHeader } from "./raw-header.ts";
import { requestIdFrom } from "./request-id.ts";
import type { ServiceEnv } from "./types.ts";

/** Route label for requests no route matched: raw paths would make metric cardinality unbounded. */
export const UNMATCHED_ROUTE = "(unmatched)";
/** Probes are logged at debug: at info they would drown the useful lines. */
const PROBES = new Set(["/healthz", "/readyz", "/metrics"]);

/**
 * The first middleware of every service app: request id (echoed as `x-request-id`), a child
 * logger bound to it, the body limit, then after the handler one metrics observation and one log
 * line.
 * 5xx lines are errors and carry the cause (`c.error`, set by Hono before onError runs);
 * 4xx are client mistakes, logged at info.
 */
export function requestContext(
  logger: Logger,
  metrics: MetricsRegistry,
  bodyLimitBytes: number,
): MiddlewareHandler<ServiceEnv> {
  // Called in place of next() rather than registered as a second middleware: one less compose step per request.
  const limitBody = bodyLimit(bodyLimitBytes);
  return async function requestContext(c, next) {
    const started = performance.now();
    const requestId = requestIdFrom(rawHeader(c, "x-request-id"));
    c.set("requestId", requestId);
    c.set("logger", lazyChild(logger, { request_id: requestId }));
    setResponseHeader(c, "x-request-id", requestId);
    try {
      await limitBody(c, next);
    } catch (err) {
      // Hono hands only Error instances to onError; anything else thrown (a string, an object)
      // would escape as a bare 500 from the adapter, without our body, log line or metric.
      c.error = err instanceof Error ? err : new Error("non-Error value thrown", { cause: err });
      c.res = onError(c.error, c);
    }

    const seconds = (performance.now() - started) / 1000;
    const status = c.res.status;
    const route = routeOf(routePath(c));
    metrics.observeRequest(c.req.method, route, status, seconds);

    const level = status >= 500 ? (c.error ? "error" : "warn") : PROBES.has(route) ? "debug" : "info";
    if (!logger.isLevelEnabled(level)) return;
    const line = {
      request_id: requestId,
      method: c.req.method,
      route,
      status,
      duration_ms: Math.round(seconds * 1e4) / 10,
    };
    // error: an exception behind a 5xx, logged with its cause; warn: a deliberate 5xx (readiness, draining)
    if (level === "error") logger.error({ ...line, err: c.error }, "request failed");
    else logger[level](line, "request");
  };
}

// After next(), Hono's routeIndex points at the last handler that ran; if that is this middleware
// ("*"), no route matched.
const routeOf = (path: string) => (path === "*" || path === "/*" ? UNMATCHED_ROUTE : path);
