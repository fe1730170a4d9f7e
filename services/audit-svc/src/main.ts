import { GetSecretValueCommand } from "@aws-sdk/client-secrets-manager";
import { GetQueueUrlCommand } from "@aws-sdk/client-sqs";
import { createAwsClients } from "@flowstate/shared/aws/clients";
import { queueNames } from "@flowstate/shared/config/base";
import { parseConfig } from "@flowstate/shared/config/parse-config";
import { type Consumer, createConsumer } from "@flowstate/shared/consumer/consumer";
import { createMetrics } from "@flowstate/shared/http/metrics";
import { serve } from "@flowstate/shared/http/serve";
import { createLogger } from "@flowstate/shared/log/logger";
import { createApp } from "./app.ts";
import { registerArchiveMetrics } from "./archive/metrics.ts";
import { startArchiver } from "./archive/start-archiver.ts";
import { AuditConfig } from "./config.ts";
import { auditConsumer } from "./consumers/consumer.ts";
import { databaseLogins, openAuditDatabase } from "./db/open-audit-database.ts";
import { buildDeps } from "./deps-factory.ts";

/**
 * Boot: configuration, the assertion key, the database (migrated as the schema's owner, then
 * connected as the insert-only role: README "Database roles"), the app, the consumer of
 * `<prefix>-<stage>-audit-svc`, the archiver (src/archive/: batches to the Object Lock bucket, then
 * live retention), then listen. Shutdown drains HTTP first, then the consumer, then the archiver
 * (a round in flight finishes). audit-svc emits no events, so it runs no outbox relay.
 */
const config = parseConfig(AuditConfig);
const logger = createLogger({ service: "audit-svc", level: config.LOG_LEVEL });
const aws = createAwsClients({ endpoint: config.AWS_ENDPOINT_URL });

const assertionKey = await aws
  .data("secretsmanager")
  .send(new GetSecretValueCommand({ SecretId: config.INTERNAL_AUTH_SECRET_ID }));
if (!assertionKey.SecretString) throw new Error(`secret ${config.INTERNAL_AUTH_SECRET_ID} has no SecretString`);

const logins = await databaseLogins(config);
const orm = await openAuditDatabase({
  ...logins,
  schema: config.DATABASE_SCHEMA,
  logger,
  poolMax: config.DATABASE_POOL_MAX,
});
const deps = buildDeps({ config, orm, logger, aws, internalAuthSecret: assertionKey.SecretString });
const metrics = createMetrics();
registerArchiveMetrics(metrics, deps);
const app = createApp(deps, { metrics });

let consumer: Consumer | undefined;
if (config.CONSUME_EVENTS) {
  const sqs = aws.data("sqs");
  const { queue } = queueNames(config, "audit-svc");
  const { QueueUrl } = await sqs.send(new GetQueueUrlCommand({ QueueName: queue }));
  consumer = createConsumer({
    sqs,
    queueUrl: QueueUrl!,
    orm,
    logger,
    definition: auditConsumer(deps.schema, logger),
    metrics,
  }).start();
}

const archiver = startArchiver(deps);

await serve(app, {
  host: config.HOST,
  port: config.PORT,
  logger,
  onShutdown: [() => consumer?.stop({ deadlineMs: 20_000 }), () => archiver.stop(), () => orm.close()],
});
