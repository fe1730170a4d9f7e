import { databaseOptions } from "@flowstate/shared/boot/database-options";
import { startKeyring } from "@flowstate/shared/boot/keyring-loader";
import { serviceBoot } from "@flowstate/shared/boot/service-boot";
import { parseConfig } from "@flowstate/shared/config/parse-config";
import { createConsumer } from "@flowstate/shared/consumer/consumer";
import { openDatabase } from "@flowstate/shared/db/open-database";
import { createApp } from "./app.ts";
import { PrivacyConfig } from "./config.ts";
import { privacyConsumer } from "./consumers/handlers.ts";
import { migrations } from "./db/migrations.ts";
import { buildDeps } from "./deps-factory.ts";
import { startExportRunner } from "./export-runner.ts";
import { startSweeper } from "./sweeper.ts";

/**
 * Boot: configuration, its keys per caller, the database (migrations under a lock), the app, the
 * outbox relay, the consumer of `<prefix>-<stage>-privacy-svc` and the sweeper, then listen.
 * Shutdown drains HTTP first, then the consumer (exports in progress finish or go back to the
 * queue), the sweeper and the relay.
 */
const config = parseConfig(PrivacyConfig);
const { logger, aws, metrics, ...boot } = serviceBoot("privacy-svc", config);

// Keys per caller (ADR 0014): its pairs only, reloaded every 60 s and on SIGHUP.
const keys = await startKeyring({
  secrets: aws.data("secretsmanager"),
  prefix: config.SERVICE_PREFIX,
  stage: config.STAGE,
  service: "privacy-svc",
  logger,
});
const orm = await openDatabase({ ...databaseOptions(config, logger), entities: [], migrations });
const deps = buildDeps({ config, orm, logger, aws, callerKeys: keys.keyring });
const runner = startExportRunner(deps);
if (config.EXPORT_FAST_PATH) deps.runNow = runner.kick;
const app = createApp(deps, { metrics });
const relay = boot.relay(orm, aws.data("eventbridge"));
const consumer = await boot.consumer(aws.data("sqs"), (sqs, queueUrl) =>
  createConsumer({
    sqs,
    queueUrl,
    orm,
    logger,
    definition: privacyConsumer,
    deps,
    // Each export holds a connection while it builds: fewer at once than the pool has.
    maxMessages: Math.max(1, Math.min(10, Math.floor(config.DATABASE_POOL_MAX / 3))),
    metrics,
  }).start(),
);
const sweeper = startSweeper(deps, config.SWEEP_INTERVAL_SECONDS * 1000);

await boot.serve(app, [
  () => keys.stop(),
  () => consumer?.stop({ deadlineMs: 20_000 }),
  () => runner.stop(),
  () => sweeper.stop(),
  () => relay.stop(),
  () => orm.close(),
]);
