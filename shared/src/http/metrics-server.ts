import { Hono } from "hono";
import type { Logger } from "../log/logger.ts";
import type { MetricsRegistry } from "./metrics.ts";
import { METRICS_HEADERS } from "./probes.ts";
import { problemResponse } from "./problem.ts";
import { newRequestId } from "./request-id.ts";
import { type RunningServer, serve } from "./serve.ts";

/**
 * The Prometheus scrape on a port of its own, for a service whose main port is public (the
 * gateways): GET /metrics, the routes `routes` adds, nothing else (404 problem+json). Bind it to loopback or the private
 * interface the scraper uses (METRICS_HOST), never to the public one. Signals are the main
 * server's: stop it from the main server's shutdown hooks.
 *
 * @example
 * const internal = await serveMetrics(metrics, { host: config.METRICS_HOST, port: config.METRICS_PORT, logger });
 * await serve(app, { …, onShutdown: [() => internal.shutdown("stopping")] });
 */
export function serveMetrics(
  metrics: MetricsRegistry,
  options: {
    host: string;
    port: number;
    logger: Logger;
    /** Other internal-only routes of the process (the gateways' invalidation push, ADR 0011). */
    routes?: (app: Hono) => void;
  },
): Promise<RunningServer> {
  const app = new Hono();
  app.get("/metrics", async (c) => c.body(await metrics.render(), 200, METRICS_HEADERS));
  options.routes?.(app);
  app.notFound(() =>
    problemResponse({ status: 404, code: "NOT_FOUND", detail: "not an internal route" }, newRequestId()),
  );
  return serve(app, {
    host: options.host,
    port: options.port,
    logger: options.logger.child({ component: "metrics" }),
    handleSignals: false,
    drainTimeoutMs: 1_000,
  });
}
