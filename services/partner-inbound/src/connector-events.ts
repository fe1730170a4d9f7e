import type { SQSClient } from "@aws-sdk/client-sqs";
import { defineStatelessConsumer } from "@flowstate/shared/consumer/define-consumer";
import { startStatelessConsumer } from "@flowstate/shared/consumer/stateless-consumer";
import type { MetricsRegistry } from "@flowstate/shared/http/metrics";
import type { Logger } from "@flowstate/shared/log/logger";
import type { TenantMap } from "./tenant-map.ts";

/**
 * partner-inbound's consumer (queue `<prefix>-<stage>-partner-inbound` in eu-central-1): keeps the
 * account → tenant map current between rebuilds: ConnectorConnected adds the tenant's seller
 * account, ConnectorDisconnected removes it. Stateless (partner-inbound has no database): applying
 * either event twice is harmless, and the periodic rebuild from connector-svc repairs any reordering.
 */
export const connectorEventsConsumer = defineStatelessConsumer<() => TenantMap>()({
  service: "partner-inbound",
  handlers: {
    "ConnectorConnected.v1": (event, map) => map().connect(event.data.tenant_id, event.data.account_id),
    "ConnectorDisconnected.v1": (event, map) => map().disconnect(event.data.tenant_id),
  },
});

/** Starts the consumer over the current map (`map()` is replaced by each rebuild). */
export function startConnectorEvents(options: {
  sqs: SQSClient;
  queueUrl: string;
  map: () => TenantMap;
  logger: Logger;
  waitTimeSeconds?: number;
  metrics?: MetricsRegistry;
}): { stop(): Promise<void> } {
  return startStatelessConsumer({
    sqs: options.sqs,
    queueUrl: options.queueUrl,
    logger: options.logger,
    definition: connectorEventsConsumer,
    context: options.map,
    ...(options.waitTimeSeconds !== undefined ? { waitTimeSeconds: options.waitTimeSeconds } : {}),
    ...(options.metrics ? { metrics: options.metrics } : {}),
  });
}
