import { serviceSigner } from "@flowstate/shared/auth/keyring";
import { databaseOptions } from "@flowstate/shared/boot/database-options";
import { startKeyring } from "@flowstate/shared/boot/keyring-loader";
import { serviceBoot } from "@flowstate/shared/boot/service-boot";
import { parseConfig } from "@flowstate/shared/config/parse-config";
import { createConsumer } from "@flowstate/shared/consumer/consumer";
import { openDatabase } from "@flowstate/shared/db/open-database";
import { remoteCredentials } from "@flowstate/shared/seam/credential-check";
import { createApp } from "./app.ts";
import { ConnectorConfig } from "./config.ts";
import { connectorConsumer } from "./consumers/tenant-soft-deleted.ts";
import { entities } from "./db/entities.ts";
import { migrations } from "./db/migrations.ts";
import { buildDeps, principalCredentialsOf, settingsOf } from "./deps-factory.ts";

/**
 * Boot: configuration, its keys per caller, the database (migrations under a lock), the app, the
 * outbox relay and the TenantSoftDeleted consumer, then listen. Shutdown drains HTTP first, then
 * stops the consumer and the relay, then forgets every seller session.
 */
const config = parseConfig(ConnectorConfig);
const { logger, aws, metrics, ...boot } = serviceBoot("connector-svc", config);

// Keys per caller (ADR 0014): partner-inbound's calls are verified with its own pair's key.
const keys = await startKeyring({
  secrets: aws.data("secretsmanager"),
  prefix: config.SERVICE_PREFIX,
  stage: config.STAGE,
  service: "connector-svc",
  logger,
});
const orm = await openDatabase({ ...databaseOptions(config, logger), entities, migrations });
const deps = buildDeps({
  orm,
  logger,
  aws,
  callerKeys: keys.keyring,
  credentials: remoteCredentials({
    identityUrl: config.IDENTITY_URL,
    sign: serviceSigner(keys.keyring, "identity-svc"),
  }),
  kmsKeyId: config.DATA_KMS_KEY_ID,
  principals: principalCredentialsOf(config, aws),
  settings: settingsOf(config),
  metrics,
});
const app = createApp(deps, { metrics });
const relay = boot.relay(orm, aws.data("eventbridge"));
const consumer = await boot.consumer(aws.data("sqs"), (sqs, queueUrl) =>
  createConsumer({ sqs, queueUrl, orm, logger, metrics, definition: connectorConsumer, deps }).start(),
);

await boot.serve(app, [
  () => keys.stop(),
  () => consumer?.stop(),
  () => relay.stop(),
  () => deps.sessions.close(),
  () => orm.close(),
]);
