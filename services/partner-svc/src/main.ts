import { databaseOptions } from "@flowstate/shared/boot/database-options";
import { readSecretString } from "@flowstate/shared/boot/read-secret";
import { serviceBoot } from "@flowstate/shared/boot/service-boot";
import { parseConfig } from "@flowstate/shared/config/parse-config";
import { createConsumer } from "@flowstate/shared/consumer/consumer";
import { openDatabase } from "@flowstate/shared/db/open-database";
import { createApp } from "./app.ts";
import { PartnerConfig } from "./config.ts";
import { partnerConsumer } from "./consumers/handlers.ts";
import { migrations } from "./db/migrations.ts";

/** Boot: configuration, the assertion key, the database, the consumer, then listen. */
const config = parseConfig(PartnerConfig);
const { logger, aws, metrics, ...boot } = serviceBoot("partner-svc", config);

const secret = await readSecretString(aws.data("secretsmanager"), config.INTERNAL_AUTH_SECRET_ID);
const orm = await openDatabase({ ...databaseOptions(config, logger), entities: [], migrations });
// partner-svc's schema has no CONSUME_EVENTS: it always consumes.
const consumer = await boot.consumer(aws.data("sqs"), (sqs, queueUrl) =>
  createConsumer({ sqs, queueUrl, orm, logger, definition: partnerConsumer, metrics }).start(),
);

const app = createApp({ orm, schema: config.DATABASE_SCHEMA, logger, internalAuthSecret: secret }, { metrics });
await boot.serve(app, [() => consumer?.stop(), () => orm.close()]);
