import { databaseOptions } from "@flowstate/shared/boot/database-options";
import { startKeyring } from "@flowstate/shared/boot/keyring-loader";
import { readSecretString } from "@flowstate/shared/boot/read-secret";
import { serviceBoot } from "@flowstate/shared/boot/service-boot";
import { parseConfig } from "@flowstate/shared/config/parse-config";
import { openDatabase } from "@flowstate/shared/db/open-database";
import { createApp } from "./app.ts";
import { IdentityConfig } from "./config.ts";
import { entities } from "./db/entities.ts";
import { migrations } from "./db/migrations.ts";
import { buildDeps } from "./deps-factory.ts";
import { startHousekeeping } from "./jobs/housekeeping.ts";
import { startKeyMaintenance } from "./tokens/key-maintenance.ts";
import { secretsManagerKeyStore } from "./tokens/key-store.ts";

/**
 * Boot: configuration, its keys per caller and sign-in throttle secret, the database (migrations under a lock), the signing keys
 * (created in Secrets Manager on first boot), the app, the outbox relay, the key maintenance
 * and housekeeping timers, then listen. Shutdown drains HTTP first, then stops the timers and the relay.
 */
const config = parseConfig(IdentityConfig);
const { logger, aws, metrics, ...boot } = serviceBoot("identity-svc", config);
const secrets = aws.data("secretsmanager");

const signInThrottleSecret = await readSecretString(secrets, config.SIGN_IN_THROTTLE_SECRET_ID);
// Keys per caller (ADR 0014): its pairs only, reloaded every 60 s and on SIGHUP.
const callerKeys = await startKeyring({
  secrets,
  prefix: config.SERVICE_PREFIX,
  stage: config.STAGE,
  service: "identity-svc",
  logger,
});
const orm = await openDatabase({ ...databaseOptions(config, logger), entities, migrations });
const deps = await buildDeps({
  orm,
  logger,
  signInThrottleSecret,
  callerKeys: callerKeys.keyring,
  keyStore: secretsManagerKeyStore(secrets, config.SIGNING_KEYS_SECRET_ID),
  issuer: config.JWT_ISSUER,
  audience: config.JWT_AUDIENCE,
  accessTokenTtlSeconds: config.ACCESS_TOKEN_TTL_SECONDS,
  sessionTtlDays: config.SESSION_TTL_DAYS,
  keyActivationDelaySeconds: config.KEY_ACTIVATION_DELAY_SECONDS,
  argon2: config.ARGON2_PARAMS,
  signInThrottle: {
    freeFailures: config.SIGN_IN_FREE_FAILURES,
    baseMs: config.SIGN_IN_BACKOFF_BASE_MS,
    maxMs: config.SIGN_IN_BACKOFF_MAX_SECONDS * 1000,
  },
  oauthResources: config.OAUTH_RESOURCES,
  cimd: { allowedAddresses: config.OAUTH_CIMD_ALLOWED_ADDRESSES },
  oauthRegistrationsPerHour: config.OAUTH_REGISTRATIONS_PER_HOUR,
});
if (config.OAUTH_CIMD_ALLOWED_ADDRESSES.length)
  logger.warn(
    { addresses: config.OAUTH_CIMD_ALLOWED_ADDRESSES },
    "OAUTH_CIMD_ALLOWED_ADDRESSES is a test seam; unset it in production",
  );
const app = createApp(deps, { metrics });
const relay = boot.relay(orm, aws.data("eventbridge"));
const maintenance = startKeyMaintenance(deps, {
  reloadMs: config.KEYSET_RELOAD_SECONDS * 1000,
  rotateAfterMs: config.KEY_ROTATION_DAYS * 24 * 3600_000,
});

const housekeeping = startHousekeeping(deps, { everyMs: 60_000 });

await boot.serve(app, [
  () => callerKeys.stop(),
  () => maintenance.stop(),
  () => housekeeping.stop(),
  () => relay.stop(),
  () => orm.close(),
]);
