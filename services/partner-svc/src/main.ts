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
import { createApp } from "./app.ts";
import { PartnerConfig } from "./config.ts";
import { partnerConsumer } from "./consumers/handlers.ts";
import { migrations } from "./db/migrations.ts";

/** Boot: configuration, the assertion key, the database, the consumer, then listen. */
const config = parseConfig(PartnerConfig);
const logger = createLogger({ service: "partner-svc", level: config.LOG_LEVEL });
const aws = createAwsClients({ endpoint: config.AWS_ENDPOINT_URL });
const secret = (
  await aws.data("secretsmanager").send(new GetSecretValueCommand({ SecretId: config.INTERNAL_AUTH_SECRET_ID }))
).SecretString;
if (!secret) throw new Error(`secret ${config.INTERNAL_AUTH_SECRET_ID} has no SecretString`);

const orm = await openDatabase({
  url: config.DATABASE_URL,
  schema: config.DATABASE_SCHEMA,
  entities: [],
  migrations,
  logger,
});
const metrics = createMetrics();
const queue = await aws
  .data("sqs")
  .send(new GetQueueUrlCommand({ QueueName: queueNames(config, "partner-svc").queue }));
const consumer = createConsumer({
  sqs: aws.data("sqs"),
  queueUrl: queue.QueueUrl!,
  orm,
  logger,
  definition: partnerConsumer,
  metrics,
}).start();

const app = createApp({ orm, schema: config.DATABASE_SCHEMA, logger, internalAuthSecret: secret }, { metrics });
await serve(app, {
  host: config.HOST,
  port: config.PORT,
  logger,
  onShutdown: [() => consumer.stop(), () => orm.close()],
});
