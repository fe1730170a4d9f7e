import { GetSecretValueCommand } from "@aws-sdk/client-secrets-manager";
import { GetQueueUrlCommand } from "@aws-sdk/client-sqs";
import { createAwsClients } from "@flowstate/shared/aws/clients";
import { queueNames } from "@flowstate/shared/config/base";
import { parseConfig } from "@flowstate/shared/config/parse-config";
import { type StatelessConsumer, startStatelessConsumer } from "@flowstate/shared/consumer/stateless-consumer";
import { openDatabase } from "@flowstate/shared/db/open-database";
import { createMetrics } from "@flowstate/shared/http/metrics";
import { serve } from "@flowstate/shared/http/serve";
import { createLogger } from "@flowstate/shared/log/logger";
import { startOutboxRelay } from "@flowstate/shared/outbox/relay";
import { createApp } from "./app.ts";
import { OffersConfig } from "./config.ts";
import { offersConsumer } from "./consumers/handlers.ts";
import { migrations } from "./db/migrations.ts";
import { buildDeps } from "./deps-factory.ts";
import { startTracker, type Tracker } from "./tracker/tracker.ts";

/**
 * Boot: configuration, the assertion key, the database (migrations under a lock), the app, the
 * outbox relay, the change-set tracker (which resumes every change set in flight) and the
 * consumer, then listen. Shutdown drains HTTP first, then stops the consumer, the tracker and the
 * relay, then forgets every seller session.
 */
const config = parseConfig(OffersConfig);
const logger = createLogger({ service: "offers-svc", level: config.LOG_LEVEL });
const aws = createAwsClients({
  endpoint: config.AWS_ENDPOINT_URL,
  marketplaceEndpoint: config.MARKETPLACE_ENDPOINT_URL,
});

const assertionKey = await aws
  .data("secretsmanager")
  .send(new GetSecretValueCommand({ SecretId: config.INTERNAL_AUTH_SECRET_ID }));
if (!assertionKey.SecretString) throw new Error(`secret ${config.INTERNAL_AUTH_SECRET_ID} has no SecretString`);

const orm = await openDatabase({
  url: config.DATABASE_URL,
  schema: config.DATABASE_SCHEMA,
  entities: [],
  migrations,
  logger,
  pool: { max: config.DATABASE_POOL_MAX },
});
const metrics = createMetrics();
let tracker: Tracker | undefined;
const deps = buildDeps({
  config,
  orm,
  logger,
  aws,
  internalAuthSecret: assertionKey.SecretString,
  metrics,
  wakeTracker: () => tracker?.wake(),
});
const app = createApp(deps, { metrics });
const relay = startOutboxRelay({
  orm,
  eventBridge: aws.data("eventbridge"),
  busName: config.EVENT_BUS_NAME,
  logger,
  metrics,
});
tracker = startTracker(deps, { idleMs: config.TRACKER_IDLE_MS, metrics });

let consumer: StatelessConsumer | undefined;
if (config.CONSUME_EVENTS) {
  const sqs = aws.data("sqs");
  const { QueueUrl } = await sqs.send(new GetQueueUrlCommand({ QueueName: queueNames(config, "offers-svc").queue }));
  consumer = startStatelessConsumer({
    sqs,
    queueUrl: QueueUrl!,
    logger,
    definition: offersConsumer,
    context: deps,
    metrics,
  });
}

await serve(app, {
  host: config.HOST,
  port: config.PORT,
  logger,
  onShutdown: [
    () => consumer?.stop(),
    () => tracker?.stop(),
    () => relay.stop(),
    () => deps.close(),
    () => orm.close(),
  ],
});
