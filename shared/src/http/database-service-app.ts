import type { Hono, MiddlewareHandler } from "hono";
import { type Database, databaseReady } from "../db/open-database.ts";
import type { Logger } from "../log/logger.ts";
import type { CallContext } from "../seam/call-context.ts";
import { type SeamDeps, type SeamOptions, serviceSeam } from "../seam/seam.ts";
import { createServiceApp } from "./app.ts";
import type { MetricsRegistry } from "./metrics.ts";
import { routeBook } from "./route-book.ts";
import type { ServiceEnv } from "./types.ts";

/** What main.ts and the test harness pass a service's `createApp`. */
export interface AppOptions {
  /** main.ts's registry, so /metrics shows the relay's and the consumer's gauges too. */
  metrics?: MetricsRegistry | undefined;
  /** Tests: check every answer against its route's response schema (mount-route.ts). */
  checkResponses?: boolean | undefined;
}

/**
 * The app of a service with a database: the platform base (`createServiceApp`: request ids, body
 * limit, probes with /readyz checking the database, one error mapping), then the seam (shared/src/seam/:
 * the deny-by-default caller check, the call context, each route's declared access), then the
 * routes, in the order given. `context` instead of `seam`: identity-svc's own middleware (ADR 0012).
 *
 * @example
 * export const createApp = (deps: WidgetsDeps, options: AppOptions = {}): WidgetsApp =>
 *   databaseServiceApp<WidgetsEnv>("widgets-svc", deps, options, {
 *     bodyLimitBytes: 16 * 1024,
 *     seam: { service: "widgets-svc", deps },
 *     routes: [mountWidgetsList, mountWidgetsGet],
 *   });
 */
export function databaseServiceApp<E extends ServiceEnv>(
  name: string,
  deps: { logger: Logger; orm: Database },
  options: AppOptions,
  app: { bodyLimitBytes: number; routes: ((app: Hono<E>) => void)[] } & (
    | { context: MiddlewareHandler<E> }
    | { seam: SeamOptions<SeamDeps> }
  ),
): Hono<E> {
  const service = createServiceApp<E>({
    name,
    logger: deps.logger,
    metrics: options.metrics,
    checkResponses: options.checkResponses,
    bodyLimitBytes: app.bodyLimitBytes,
    readiness: { database: databaseReady(deps.orm) },
  });
  if ("seam" in app) {
    routeBook(service).access = {
      callOf: (c) => c.get("call"),
      recheck: (c) => (c.get("call") as CallContext).recheckCredential(),
    };
    service.use(serviceSeam(app.seam) as unknown as MiddlewareHandler<E>);
  } else service.use(app.context);
  for (const mount of app.routes) mount(service);
  return service;
}
