import { GetSecretValueCommand } from "@aws-sdk/client-secrets-manager";
import { createAwsClients } from "@flowstate/shared/aws/clients";
import { parseConfig } from "@flowstate/shared/config/parse-config";
import { openDatabase } from "@flowstate/shared/db/open-database";
import { createMetrics } from "@flowstate/shared/http/metrics";
import { serve } from "@flowstate/shared/http/serve";
import { createLogger } from "@flowstate/shared/log/logger";
import { startOutboxRelay } from "@flowstate/shared/outbox/relay";
import { createApp } from "./app.ts";
import { IdentityConfig } from "./config.ts";
import { entities } from "./db/entities.ts";
import { migrations } from "./db/migrations.ts";
import { buildDeps } from "./deps-factory.ts";
import { startHousekeeping } from "./jobs/housekeeping.ts";
import { startKeyMaintenance } from "./tokens/key-maintenance.ts";
import { secretsManagerKeyStore } from "./tokens/key-store.ts";

/**
 * Boot: configuration, the assertion key, the database (migrations under a lock), the signing keys
 * (created in Secrets Manager on first boot), the app, the outbox relay, the key maintenance
 * and housekeeping timers, then listen. Shutdown drains HTTP first, then stops the timers and the relay.
 */
const config = parseConfig(IdentityConfig);
const logger = createLogger({ service: "identity-svc", level: config.LOG_LEVEL });
const aws = createAwsClients({ endpoint: config.AWS_ENDPOINT_URL });
const secrets = aws.data("secretsmanager");

const assertionKey = await secrets.send(new GetSecretValueCommand({ SecretId: config.INTERNAL_AUTH_SECRET_ID }));
if (!assertionKey.SecretString) throw new Error(`secret ${config.INTERNAL_AUTH_SECRET_ID} has no SecretString`);

const orm = await openDatabase({
  url: config.DATABASE_URL,
  schema: config.DATABASE_SCHEMA,
  entities,
  migrations,
  logger,
  pool: { max: config.DATABASE_POOL_MAX },
});
const deps = await buildDeps({
  orm,
  logger,
  internalAuthSecret: assertionKey.SecretString,
  keyStore: secretsManagerKeyStore(secrets, config.SIGNING_KEYS_SECRET_ID),
  issuer: config.JWT_ISSUER,
  audience: config.JWT_AUDIENCE,
  accessTokenTtlSeconds: config.ACCESS_TOKEN_TTL_SECONDS,
  sessionTtlDays: config.SESSION_TTL_DAYS,
  keyActivationDelaySeconds: config.KEY_ACTIVATION_DELAY_SECONDS,
  signInThrottle: {
    freeFailures: config.SIGN_IN_FREE_FAILURES,
    baseMs: config.SIGN_IN_BACKOFF_BASE_MS,
    maxMs: config.SIGN_IN_BACKOFF_MAX_SECONDS * 1000,
  },
  oauthResources: config.OAUTH_RESOURCES,
  cimd: { allowedAddresses: config.OAUTH_CIMD_ALLOWED_ADDRESSES },
});
if (config.OAUTH_CIMD_ALLOWED_ADDRESSES.length)
  logger.warn(
    { addresses: config.OAUTH_CIMD_ALLOWED_ADDRESSES },
    "OAUTH_CIMD_ALLOWED_ADDRESSES is a test seam; unset it in production",
  );
// One registry for the HTTP metrics and the relay's outbox_backlog, so /metrics shows both.
const metrics = createMetrics();
const app = createApp(deps, { metrics });
const relay = startOutboxRelay({
  orm,
  eventBridge: aws.data("eventbridge"),
  busName: config.EVENT_BUS_NAME,
  logger,
  metrics,
});
const maintenance = startKeyMaintenance(deps, {
  reloadMs: config.KEYSET_RELOAD_SECONDS * 1000,
  rotateAfterMs: config.KEY_ROTATION_DAYS * 24 * 3600_000,
});

const housekeeping = startHousekeeping(deps, { everyMs: 60_000 });

await serve(app, {
  host: config.HOST,
  port: config.PORT,
  logger,
  onShutdown: [() => maintenance.stop(), () => housekeeping.stop(), () => relay.stop(), () => orm.close()],
});
