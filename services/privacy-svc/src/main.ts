import { GetSecretValueCommand } from "@aws-sdk/client-secrets-manager";
import { GetQueueUrlCommand } from "@aws-sdk/client-sqs";
import { createAwsClients } from "@flowstate/shared/aws/clients";
import { queueNames } from "@flowstate/shared/config/base";
import { parseConfig } from "@flowstate/shared/config/parse-config";
import { createConsumer } from "@flowstate/shared/consumer/consumer";
import { openDatabase } from "@flowstate/shared/db/open-database";
import { createMetrics } from "@flowstate/shared/http/metrics";
import { serve } from "@flowstate/shared/http/serve";
import { createLogger } from "@flowstate/shared/log/logger";
import { startOutboxRelay } from "@flowstate/shared/outbox/relay";
import { createApp } from "./app.ts";
import { PrivacyConfig } from "./config.ts";
import { privacyConsumer } from "./consumers/handlers.ts";
import { migrations } from "./db/migrations.ts";
import { buildDeps } from "./deps-factory.ts";
import { startExportRunner } from "./export-runner.ts";
import { startSweeper } from "./sweeper.ts";

/**
 * Boot: configuration, the assertion key, the database (migrations under a lock), the app, the
 * outbox relay, the consumer of `<prefix>-<stage>-privacy-svc` and the sweeper, then listen.
 * Shutdown drains HTTP first, then the consumer (exports in progress finish or go back to the
 * queue), the sweeper and the relay.
 */
const config = parseConfig(PrivacyConfig);
const logger = createLogger({ service: "privacy-svc", level: config.LOG_LEVEL });
const aws = createAwsClients({ endpoint: config.AWS_ENDPOINT_URL });

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
const deps = buildDeps({ config, orm, logger, aws, internalAuthSecret: assertionKey.SecretString });
const runner = startExportRunner(deps);
deps.runNow = runner.kick;
const metrics = createMetrics();
const app = createApp(deps, { metrics });
const relay = startOutboxRelay({
  orm,
  eventBridge: aws.data("eventbridge"),
  busName: config.EVENT_BUS_NAME,
  logger,
  metrics,
});

let consumer: ReturnType<typeof createConsumer> | undefined;
if (config.CONSUME_EVENTS) {
  const sqs = aws.data("sqs");
  const { queue } = queueNames(config, "privacy-svc");
  const { QueueUrl } = await sqs.send(new GetQueueUrlCommand({ QueueName: queue }));
  consumer = createConsumer({
    sqs,
    queueUrl: QueueUrl!,
    orm,
    logger,
    definition: privacyConsumer(deps),
    // Each export holds a connection while it builds: fewer at once than the pool has.
    maxMessages: Math.max(1, Math.min(10, Math.floor(config.DATABASE_POOL_MAX / 3))),
    metrics,
  }).start();
}
const sweeper = startSweeper(deps, config.SWEEP_INTERVAL_SECONDS * 1000);

await serve(app, {
  host: config.HOST,
  port: config.PORT,
  logger,
  onShutdown: [
    () => consumer?.stop({ deadlineMs: 20_000 }),
    () => runner.stop(),
    () => sweeper.stop(),
    () => relay.stop(),
    () => orm.close(),
  ],
});
