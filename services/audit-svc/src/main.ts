import { startKeyring } from "@flowstate/shared/boot/keyring-loader";
import { serviceBoot } from "@flowstate/shared/boot/service-boot";
import { parseConfig } from "@flowstate/shared/config/parse-config";
import { createConsumer } from "@flowstate/shared/consumer/consumer";
import { createApp } from "./app.ts";
import { registerArchiveMetrics } from "./archive/metrics.ts";
import { retentionWindowProblem } from "./archive/retention.ts";
import { startArchiver } from "./archive/start-archiver.ts";
import { AuditConfig } from "./config.ts";
import { auditConsumer } from "./consumers/consumer.ts";
import { databaseLogins, openAuditDatabase } from "./db/open-audit-database.ts";
import { buildDeps } from "./deps-factory.ts";

/**
 * Boot: configuration, the database (migrated as the schema's owner, then
 * connected as the insert-only role: README "Database roles"), the app, the consumer of
 * `<prefix>-<stage>-audit-svc`, the archiver (src/archive/: batches to the Object Lock bucket, then
 * live retention), then listen. Shutdown drains HTTP first, then the consumer, then the archiver
 * (a round in flight finishes). audit-svc emits no events, so it runs no outbox relay.
 */
const config = parseConfig(AuditConfig);
const { logger, aws, metrics, ...boot } = serviceBoot("audit-svc", config);

const logins = await databaseLogins(config);
const orm = await openAuditDatabase({
  ...logins,
  schema: config.DATABASE_SCHEMA,
  logger,
  poolMax: config.DATABASE_POOL_MAX,
});
// A window below the owner's floor would fail every retention round: refuse it now, like a bad variable.
const retentionProblem = await retentionWindowProblem({
  orm,
  schema: config.DATABASE_SCHEMA,
  windowDays: config.AUDIT_RETENTION_DAYS,
});
if (retentionProblem) {
  process.stderr.write(`Invalid configuration (1 problem):\n  ${retentionProblem}\n`);
  await orm.close();
  process.exit(1);
}
// Keys per caller (ADR 0014): its pairs only, reloaded every 60 s and on SIGHUP.
const keys = await startKeyring({
  secrets: aws.data("secretsmanager"),
  prefix: config.SERVICE_PREFIX,
  stage: config.STAGE,
  service: "audit-svc",
  logger,
});
const deps = buildDeps({ config, orm, logger, aws, callerKeys: keys.keyring });
registerArchiveMetrics(metrics, deps);
const app = createApp(deps, { metrics });
const consumer = await boot.consumer(aws.data("sqs"), (sqs, queueUrl) =>
  createConsumer({
    sqs,
    queueUrl,
    orm,
    logger,
    definition: auditConsumer,
    deps: { schema: deps.schema, logger },
    metrics,
  }).start(),
);

const archiver = startArchiver(deps);

await boot.serve(app, [
  () => keys.stop(),
  () => consumer?.stop({ deadlineMs: 20_000 }),
  () => archiver.stop(),
  () => orm.close(),
]);
