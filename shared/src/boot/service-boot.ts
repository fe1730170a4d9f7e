import type { EventBridgeClient } from "@aws-sdk/client-eventbridge";
import type { SQSClient } from "@aws-sdk/client-sqs";
import { type FlowstateServiceName, serviceCatalog } from "@flowstate/contracts/services/catalog";
import { type AwsClients, createAwsClients } from "../aws/clients.ts";
import { queueNames } from "../config/base.ts";
import type { Database } from "../db/open-database.ts";
import type { FixedHeaders } from "../http/client-errors.ts";
import { createMetrics, type MetricsRegistry } from "../http/metrics.ts";
import { type Fetchable, type RunningServer, type ShutdownHook, serve } from "../http/serve.ts";
import { createLogger, type Logger, type LogLevel } from "../log/logger.ts";
import { type OutboxRelay, startOutboxRelay } from "../outbox/relay.ts";
import { queueUrlOf } from "./queue-url.ts";

/** The variables of a service's configuration that its boot reads (every service schema has them). */
export interface BootConfig {
  HOST: string;
  PORT: number;
  LOG_LEVEL: LogLevel;
  SERVICE_PREFIX: string;
  STAGE: string;
  EVENT_BUS_NAME: string;
  AWS_ENDPOINT_URL?: string | undefined;
  MARKETPLACE_ENDPOINT_URL?: string | undefined;
  /** The relay's outbox-lag EMF line every this many ms, 0: none (`serviceConfigSchema` fills the default). */
  OUTBOX_LAG_METRIC_MS?: number | undefined;
  /** False: this instance starts no consumer. A service whose schema has no such variable always consumes. */
  CONSUME_EVENTS?: boolean | undefined;
}

export interface ServiceBoot {
  logger: Logger;
  /** The process's client factory, limited to the service's `aws` clients in the services catalog. */
  aws: AwsClients;
  /** The one registry of the process: HTTP metrics, the relay's and the consumer's gauges, the service's own. */
  metrics: MetricsRegistry;
  /**
   * The outbox relay onto EVENT_BUS_NAME, its gauges on `metrics`, and its outbox-lag EMF line on
   * stdout every OUTBOX_LAG_METRIC_MS (the production alarm's figure). Stop it before closing the ORM.
   */
  relay(orm: Database, eventBridge: EventBridgeClient): OutboxRelay;
  /**
   * Unless CONSUME_EVENTS is false: looks up the URL of `<prefix>-<stage>-<service>` and hands it
   * to `start`, which starts the service's own kind of consumer and returns it.
   */
  consumer<T>(sqs: SQSClient, start: (sqs: SQSClient, queueUrl: string) => T): Promise<T | undefined>;
  /**
   * Listens on HOST:PORT until SIGTERM/SIGINT, then drains and runs `onShutdown` in order (`serve`).
   * `headers`: the gateways' headers on answers written outside the app; `handleSignals`: tests pass false.
   */
  serve(
    app: Fetchable,
    onShutdown: ShutdownHook[],
    options?: { headers?: FixedHeaders; handleSignals?: boolean },
  ): Promise<RunningServer>;
}

/**
 * What every service process sets up around its own parts: the logger named after the service,
 * the AWS client factory, the metrics registry, and the steps main.ts takes after building its app
 * (relay, consumer, listen). The factory builds only the clients the services catalog lists for
 * the service (the residency manifest is rendered from that list); the order of the steps and of
 * the shutdown hooks stays main.ts's.
 * The marketplace endpoint is passed to every factory: only a service that calls
 * `aws.marketplace(…)` ever uses it.
 *
 * @example
 * const config = parseConfig(WidgetsConfig);
 * const { logger, aws, metrics, ...boot } = serviceBoot("widgets-svc", config);
 * const relay = boot.relay(orm, aws.data("eventbridge"));
 * const consumer = await boot.consumer(aws.data("sqs"), (sqs, queueUrl) =>
 *   createConsumer({ sqs, queueUrl, orm, logger, metrics, definition: widgetsConsumer }).start(),
 * );
 * await boot.serve(app, [() => consumer?.stop(), () => relay.stop(), () => orm.close()]);
 */
export function serviceBoot(service: FlowstateServiceName, config: BootConfig): ServiceBoot {
  const logger = createLogger({ service, level: config.LOG_LEVEL });
  const aws = createAwsClients({
    endpoint: config.AWS_ENDPOINT_URL,
    marketplaceEndpoint: config.MARKETPLACE_ENDPOINT_URL,
    // Only the clients the services catalog lists for this service: the residency table is rendered from it.
    allowed: serviceCatalog[service].aws,
  });
  const metrics = createMetrics();
  return {
    logger,
    aws,
    metrics,
    relay: (orm, eventBridge) =>
      startOutboxRelay({
        orm,
        eventBridge,
        busName: config.EVENT_BUS_NAME,
        logger,
        metrics,
        lagMetric: { service, intervalMs: config.OUTBOX_LAG_METRIC_MS ?? 0 },
      }),
    async consumer(sqs, start) {
      if (config.CONSUME_EVENTS === false) return undefined;
      return start(sqs, await queueUrlOf(sqs, queueNames(config, service).queue));
    },
    serve: (app, onShutdown, options = {}) =>
      serve(app, { host: config.HOST, port: config.PORT, logger, onShutdown, ...options }),
  };
}
