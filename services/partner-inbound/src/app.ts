import { createServiceApp, type ServiceApp } from "@flowstate/shared/http/app";
import type { MetricsRegistry } from "@flowstate/shared/http/metrics";
import type { Logger } from "@flowstate/shared/log/logger";
import type { InboundStats } from "./inbound-loop.ts";

/**
 * partner-inbound serves no API: probes and /metrics only. Ready once the account → tenant map
 * has been loaded from connector-svc (before that every event would be dropped as unknown).
 */
export function createApp(options: {
  logger: Logger;
  metrics: MetricsRegistry;
  stats: () => InboundStats;
  mapLoaded: () => boolean;
  tenants: () => number;
}): ServiceApp {
  const { metrics, stats } = options;
  metrics.counter(
    "partner_events_received_total",
    "Partner Central events received from the us-east-1 queue",
    () => stats().received,
  );
  metrics.counter(
    "partner_events_published_total",
    "Partner events published to the eu-central-1 bus",
    () => stats().published,
  );
  metrics.counter(
    "partner_events_dropped_total",
    "Partner events dropped, by reason (disconnected_account: a tenant disconnected or deleted it)",
    () => Object.entries(stats().dropped).map(([reason, value]) => ({ labels: { reason }, value })),
  );
  metrics.counter(
    "partner_events_deferred_total",
    "Partner events of an account the map does not know, left on the queue for a later receive",
    () => stats().deferred,
  );
  metrics.counter(
    "partner_publish_failures_total",
    "Partner events left for redelivery after a failed publish",
    () => stats().publishFailures,
  );
  metrics.gauge("partner_connected_accounts", "Seller accounts admitted (connected tenants)", () => options.tenants());
  return createServiceApp({
    name: "partner-inbound",
    logger: options.logger,
    metrics,
    bodyLimitBytes: 1024,
    readiness: {
      tenant_map: async () => {
        if (!options.mapLoaded()) throw new Error("account map not loaded from connector-svc yet");
      },
    },
  });
}
