import { databaseOptions } from "@flowstate/shared/boot/database-options";
import { startKeyring } from "@flowstate/shared/boot/keyring-loader";
import { serviceBoot } from "@flowstate/shared/boot/service-boot";
import { parseConfig } from "@flowstate/shared/config/parse-config";
import { createConsumer } from "@flowstate/shared/consumer/consumer";
import { openDatabase } from "@flowstate/shared/db/open-database";
import { every } from "@flowstate/shared/jobs/every";
import { createApp } from "./app.ts";
import { NotifyConfig } from "./config.ts";
import { notifyConsumer } from "./consumers/consumer.ts";
import { migrations } from "./db/migrations.ts";
import { pruneLog } from "./delivery/retention.ts";
import { startDeliveryWorker } from "./delivery/worker.ts";
import { buildDeps } from "./deps-factory.ts";

/**
 * Boot: configuration, its keys per caller, the database, the app, the delivery worker (which
 * resumes every pending delivery), the log's pruning and the consumer, then listen. Shutdown
 * drains HTTP, then stops the consumer, the worker and the pruning before closing the database.
 */
const config = parseConfig(NotifyConfig);
const { logger, aws, metrics, ...boot } = serviceBoot("notify-svc", config);

// Keys per caller (ADR 0014): its pairs only, reloaded every 60 s and on SIGHUP.
const keys = await startKeyring({
  secrets: aws.data("secretsmanager"),
  prefix: config.SERVICE_PREFIX,
  stage: config.STAGE,
  service: "notify-svc",
  logger,
});
const orm = await openDatabase({ ...databaseOptions(config, logger), entities: [], migrations });
const deps = buildDeps({ config, orm, logger, aws, callerKeys: keys.keyring });
const app = createApp(deps, { metrics });
const worker = await startDeliveryWorker(deps);
const pruning = every(3600_000, () => pruneLog(deps), { logger, what: "delivery log pruning" });
const consumer = await boot.consumer(aws.data("sqs"), (sqs, queueUrl) =>
  createConsumer({ sqs, queueUrl, orm, logger, metrics, definition: notifyConsumer, deps }).start(),
);

await boot.serve(app, [
  () => keys.stop(),
  () => consumer?.stop(),
  () => worker.stop(),
  () => pruning.stop(),
  () => orm.close(),
]);
