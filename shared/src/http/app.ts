import { Hono } from "hono";
import type { Logger } from "../log/logger.ts";
import { onError } from "./error-handler.ts";
import { createMetrics, type MetricsRegistry } from "./metrics.ts";
import { notFoundHandler } from "./not-found.ts";
import { mountProbes, type ReadinessCheck } from "./probes.ts";
import { requestContext } from "./request-context.ts";
import { routeBook } from "./route-book.ts";
import type { ServiceEnv } from "./types.ts";

export interface ServiceAppOptions {
  /** The service name, e.g. "identity-svc" (the logger already carries it; kept for messages). */
  name: string;
  logger: Logger;
  /** Named checks for /readyz, e.g. `{ database: () => orm.checkConnection() }`; each must throw when not ready. */
  readiness?: Record<string, ReadinessCheck> | undefined;
  /** Per-check deadline for /readyz (default 2000 ms). */
  readinessTimeoutMs?: number | undefined;
  /** Largest accepted request body (default 1 MiB); larger → 413 PAYLOAD_TOO_LARGE. */
  bodyLimitBytes?: number | undefined;
  /** The registry /metrics serves; pass your own to register gauges from other modules. */
  metrics?: MetricsRegistry | undefined;
  /**
   * False: no /metrics route on this app (a public port); serve the registry on an internal one
   * with `serveMetrics` (metrics-server.ts). Default true.
   */
  metricsRoute?: boolean | undefined;
  /**
   * Check every answer of a route mounted with `mountRoute` against its response schema (a
   * mismatch becomes a 500). Tests turn it on; production leaves it off (see mount-route.ts).
   */
  checkResponses?: boolean | undefined;
  /**
   * Headers on every answer of the app, 404s, 405s and problems included, unless a handler sets its
   * own value (the gateways' HSTS and nosniff; `serve`'s `headers` covers what never reaches the app).
   */
  responseHeaders?: Readonly<Record<string, string>> | undefined;
}

export type ServiceApp = Hono<ServiceEnv>;

/**
 * The base of every Flowstate HTTP service: request ids, one log line and one metric per request,
 * body limit, /healthz, /readyz, /metrics, and the single error mapping to problem+json (404 and
 * 405 included). Add routes to the returned app, then hand it to `serve`.
 *
 * @example
 * const metrics = createMetrics();
 * const app = createServiceApp({ name: "identity-svc", logger, metrics, readiness: { database: () => db.ping() } });
 * mountRoute(app, routeIn(identityRoutes, "tenants.create"), async ({ body }, c) => ({
 *   status: 201,
 *   body: await createTenant({ ctx: c.get("ctx"), input: body }),
 * }));
 * await serve(app, { host: config.HOST, port: config.PORT, logger, onShutdown: [() => db.close()] });
 */
export function createServiceApp<E extends ServiceEnv = ServiceEnv>(options: ServiceAppOptions): Hono<E> {
  const metrics = options.metrics ?? createMetrics();
  const app = new Hono<ServiceEnv>();
  routeBook(app).checkResponses = options.checkResponses ?? false;
  app.use(requestContext(options.logger, metrics, options.bodyLimitBytes ?? 1024 * 1024, options.responseHeaders));
  mountProbes(app, {
    readiness: options.readiness ?? {},
    readinessTimeoutMs: options.readinessTimeoutMs ?? 2000,
    metrics: options.metricsRoute === false ? false : metrics,
  });
  app.onError(onError);
  app.notFound(notFoundHandler(app));
  // The service's env only adds variables to ServiceEnv's, which this base sets and reads; Hono's
  // types are invariant in the env, so the one widening is here rather than in every service.
  return app as unknown as Hono<E>;
}
