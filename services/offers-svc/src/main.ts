import { databaseOptions } from "@flowstate/shared/boot/database-options";
import { startKeyring } from "@flowstate/shared/boot/keyring-loader";
import { serviceBoot } from "@flowstate/shared/boot/service-boot";
import { parseConfig } from "@flowstate/shared/config/parse-config";
import { createConsumer } from "@flowstate/shared/consumer/consumer";
import { openDatabase } from "@flowstate/shared/db/open-database";
import { createApp } from "./app.ts";
import { OffersConfig } from "./config.ts";
import { offersConsumer } from "./consumers/handlers.ts";
import { migrations } from "./db/migrations.ts";
import { buildDeps } from "./deps-factory.ts";
import { startTracker, type Tracker } from "./tracker/tracker.ts";
import { startAgreementWatch } from "./watch/watch.ts";

/**
 * Boot: configuration, its keys per caller, the database (migrations under a lock), the app, the
 * outbox relay, the change-set tracker (which resumes every change set in flight), the agreement
 * watch (which resumes every watched tenant) and the consumer, then listen. Shutdown drains HTTP
 * first, then stops the consumer, the tracker, the watch and the relay, then forgets every seller
 * session.
 */
const config = parseConfig(OffersConfig);
const { logger, aws, metrics, ...boot } = serviceBoot("offers-svc", config);

// Keys per caller (ADR 0014): its pairs only, reloaded every 60 s and on SIGHUP.
const keys = await startKeyring({
  secrets: aws.data("secretsmanager"),
  prefix: config.SERVICE_PREFIX,
  stage: config.STAGE,
  service: "offers-svc",
  logger,
});
const orm = await openDatabase({ ...databaseOptions(config, logger), entities: [], migrations });
let tracker: Tracker | undefined;
const deps = buildDeps({
  config,
  orm,
  logger,
  aws,
  callerKeys: keys.keyring,
  metrics,
  wakeTracker: () => tracker?.wake(),
});
const app = createApp(deps, { metrics });
const relay = boot.relay(orm, aws.data("eventbridge"));
tracker = startTracker(deps, { idleMs: config.TRACKER_IDLE_MS, metrics });
const watch = startAgreementWatch(deps);
const consumer = await boot.consumer(aws.data("sqs"), (sqs, queueUrl) =>
  createConsumer({ sqs, queueUrl, orm, logger, metrics, definition: offersConsumer, deps }).start(),
);

await boot.serve(app, [
  () => keys.stop(),
  () => consumer?.stop(),
  () => tracker?.stop(),
  () => watch.stop(),
  () => relay.stop(),
  () => deps.close(),
  () => orm.close(),
]);
