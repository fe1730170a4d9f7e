import { databaseOptions } from "@flowstate/shared/boot/database-options";
import { startKeyring } from "@flowstate/shared/boot/keyring-loader";
import { serviceBoot } from "@flowstate/shared/boot/service-boot";
import { parseConfig } from "@flowstate/shared/config/parse-config";
import { createConsumer } from "@flowstate/shared/consumer/consumer";
import { openDatabase } from "@flowstate/shared/db/open-database";
import { createApp } from "./app.ts";
import { PartnerConfig } from "./config.ts";
import { partnerConsumer } from "./consumers/handlers.ts";
import { migrations } from "./db/migrations.ts";

/** Boot: configuration, the database, the consumer, its keys per caller, then listen. */
const config = parseConfig(PartnerConfig);
const { logger, aws, metrics, ...boot } = serviceBoot("partner-svc", config);

const orm = await openDatabase({ ...databaseOptions(config, logger), entities: [], migrations });
// partner-svc's schema has no CONSUME_EVENTS: it always consumes.
const consumer = await boot.consumer(aws.data("sqs"), (sqs, queueUrl) =>
  createConsumer({ sqs, queueUrl, orm, logger, definition: partnerConsumer, metrics }).start(),
);

// Keys per caller (ADR 0014): its pairs only, reloaded every 60 s and on SIGHUP.
const keys = await startKeyring({
  secrets: aws.data("secretsmanager"),
  prefix: config.SERVICE_PREFIX,
  stage: config.STAGE,
  service: "partner-svc",
  logger,
});
const app = createApp({ orm, schema: config.DATABASE_SCHEMA, logger, callerKeys: keys.keyring }, { metrics });
await boot.serve(app, [() => keys.stop(), () => consumer?.stop(), () => orm.close()]);
