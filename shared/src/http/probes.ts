import type { Hono } from "hono";
import type { Logger } from "../log/logger.ts";
import type { MetricsRegistry } from "./metrics.ts";
import type { ServiceEnv } from "./types.ts";

export type ReadinessCheck = () => Promise<void>;
export type CheckStatus = "ok" | "failed" | "timeout";

const HEALTHY = '{"status":"ok"}';
const JSON_HEADERS = { "content-type": "application/json" };

/** Runs every check in parallel, each bounded by `timeoutMs`; failures are logged, never returned. */
export async function runReadiness(
  checks: Record<string, ReadinessCheck>,
  timeoutMs: number,
  logger: Logger,
): Promise<{ ready: boolean; checks: Record<string, CheckStatus> }> {
  const entries = Object.entries(checks);
  const statuses = await Promise.all(
    entries.map(async ([name, check]): Promise<CheckStatus> => {
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<"timeout">((resolve) => {
        timer = setTimeout(() => resolve("timeout"), timeoutMs);
      });
      try {
        const outcome = await Promise.race([check().then(() => "ok" as const), timeout]);
        if (outcome === "timeout") logger.warn({ check: name, timeout_ms: timeoutMs }, "readiness check timed out");
        return outcome;
      } catch (err) {
        logger.warn({ check: name, err }, "readiness check failed");
        return "failed";
      } finally {
        clearTimeout(timer);
      }
    }),
  );
  const result = Object.fromEntries(entries.map(([name], i) => [name, statuses[i]!]));
  return { ready: statuses.every((s) => s === "ok"), checks: result };
}

/**
 * /healthz answers "is the process alive" and touches nothing (a failing database must not get
 * the pod killed); /readyz answers "should traffic come here" by running the checks; /metrics is
 * the Prometheus scrape, unless `metrics` is false (a public gateway serves it on its internal
 * port instead, metrics-server.ts).
 */
export function mountProbes(
  app: Hono<ServiceEnv>,
  options: {
    readiness: Record<string, ReadinessCheck>;
    readinessTimeoutMs: number;
    metrics: MetricsRegistry | false;
  },
): void {
  app.get("/healthz", (c) => c.body(HEALTHY, 200, JSON_HEADERS));
  app.get("/readyz", async (c) => {
    const { ready, checks } = await runReadiness(options.readiness, options.readinessTimeoutMs, c.get("logger"));
    return c.json({ status: ready ? "ok" : "unavailable", checks }, ready ? 200 : 503);
  });
  const { metrics } = options;
  if (metrics) app.get("/metrics", async (c) => c.body(await metrics.render(), 200, METRICS_HEADERS));
}

export const METRICS_HEADERS = { "content-type": "text/plain; version=0.0.4; charset=utf-8" };
