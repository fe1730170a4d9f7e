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
import { ConnectorConfig } from "./config.ts";
import { connectorConsumer } from "./consumers/tenant-soft-deleted.ts";
import { entities } from "./db/entities.ts";
import { migrations } from "./db/migrations.ts";
import { buildDeps, principalCredentialsOf, settingsOf } from "./deps-factory.ts";

/**
 * Boot: configuration, the assertion key, the database (migrations under a lock), the app, the
 * outbox relay and the TenantSoftDeleted consumer, then listen. Shutdown drains HTTP first, then
 * stops the consumer and the relay, then forgets every seller session.
 */
const config = parseConfig(ConnectorConfig);
const logger = createLogger({ service: "connector-svc", level: config.LOG_LEVEL });
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
  entities,
  migrations,
  logger,
  pool: { max: config.DATABASE_POOL_MAX },
});
const metrics = createMetrics();
const deps = buildDeps({
  orm,
  logger,
  aws,
  internalAuthSecret: assertionKey.SecretString,
  kmsKeyId: config.DATA_KMS_KEY_ID,
  principals: principalCredentialsOf(config, aws),
  settings: settingsOf(config),
  metrics,
});
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
  const { QueueUrl } = await sqs.send(new GetQueueUrlCommand({ QueueName: queueNames(config, "connector-svc").queue }));
  consumer = createConsumer({
    sqs,
    queueUrl: QueueUrl!,
    orm,
    logger,
    metrics,
    definition: connectorConsumer(deps),
  }).start();
}

await serve(app, {
  host: config.HOST,
  port: config.PORT,
  logger,
  onShutdown: [() => consumer?.stop(), () => relay.stop(), () => deps.sessions.close(), () => orm.close()],
});
