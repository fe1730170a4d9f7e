import { randomBytes } from "node:crypto";
import type { VerifiedIdentity } from "@flowstate/contracts/internal/identity";
import { bodyless, IDENTITY_HEADER } from "@flowstate/shared/auth/identity-assertion";
import { serviceSigner, testKeyring } from "@flowstate/shared/auth/keyring";
import { type AwsClients, createAwsClients } from "@flowstate/shared/aws/clients";
import { openTestDatabase, type TestDatabase } from "@flowstate/shared/db/test-database";
import { createLogger } from "@flowstate/shared/log/logger";
import { remoteCredentials } from "@flowstate/shared/seam/credential-check";
import { credentialsAsSigned } from "@flowstate/shared/testing/credentials";
import { signedAs } from "@flowstate/shared/testing/signed-as";
import type { EntityManager } from "@mikro-orm/postgresql";
import { createApp } from "../app.ts";
import { migrations } from "../db/migrations.ts";
import type { PrivacyDeps } from "../deps.ts";
import { startExportRunner } from "../export-runner.ts";
import type { PrivacyApp } from "../http/env.ts";
import { createExportFixtures } from "./aws-fixtures.ts";

/** A clock a test can move: `advance(ms)` shifts privacy-svc's notion of now (expiry, rate limits). */
export interface TestClock {
  now(): Date;
  advance(ms: number): void;
}
export const testClock = (): TestClock => {
  let offset = 0;
  return {
    now: () => new Date(Date.now() + offset),
    advance(ms) {
      offset += ms;
    },
  };
};

export interface PrivacyHarness {
  app: PrivacyApp;
  deps: PrivacyDeps;
  db: TestDatabase;
  aws: AwsClients;
  secret: string;
  clock: TestClock;
  bucket: string;
  /** The keys in the exports bucket. */
  objects(): Promise<string[]>;
  call(
    method: string,
    path: string,
    options?: { as?: VerifiedIdentity; headers?: Record<string, string> },
  ): Promise<Response>;
  /** Runs `fn` in a transaction, as a consumer handler would. */
  inTransaction<T>(fn: (em: EntityManager) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

/**
 * privacy-svc as service-level and end-to-end tests drive it: createApp on a throwaway schema, an
 * exports bucket, KMS key and SES sender of its own in the local emulator, a movable clock, and
 * requests signed like the gateway signs them. `participantUrls` says where identity-svc listens.
 */
export async function startPrivacyHarness(options: {
  prefix: string;
  participantUrls?: PrivacyDeps["participantUrls"];
  secret?: string;
  limits?: Partial<PrivacyDeps["limits"]>;
  /** An AWS endpoint of the test's own (a dedicated moto); the suite's shared one by default. */
  awsEndpoint?: string;
}): Promise<PrivacyHarness> {
  const logger = createLogger({ service: "privacy-svc" });
  const db = await openTestDatabase({ prefix: options.prefix, migrations, logger });
  const aws = createAwsClients({ endpoint: options.awsEndpoint ?? process.env.AWS_ENDPOINT_URL });
  const fixtures = await createExportFixtures(aws);
  const secret = options.secret ?? randomBytes(32).toString("base64url");
  const clock = testClock();
  const deps: PrivacyDeps = {
    orm: db.orm,
    schema: db.schema,
    logger,
    // Keys per caller derived from the same test secret as every other harness (ADR 0014).
    callerKeys: testKeyring("privacy-svc", secret),
    s3: aws.data("s3"),
    ses: aws.data("sesv2"),
    exports: { bucket: fixtures.bucket, kmsKeyId: fixtures.kmsKeyId },
    mailFrom: fixtures.mailFrom,
    participantUrls: options.participantUrls ?? {},
    // With identity-svc's URL (end-to-end stacks), writes re-check the session there for real.
    credentials: options.participantUrls?.["identity-svc"]
      ? remoteCredentials({
          identityUrl: options.participantUrls["identity-svc"],
          sign: serviceSigner(testKeyring("privacy-svc", secret), "identity-svc"),
        })
      : credentialsAsSigned,
    limits: {
      downloadUrlTtlSeconds: 300,
      minIntervalMs: 24 * 3600_000,
      gatherDeadlineMs: 10_000,
      participantTimeoutMs: 30_000,
      jobDeadlineMs: 30 * 60_000,
      ...options.limits,
    },
    clock: () => clock.now(),
  };
  // As main.ts runs it: a new job is built in process at once, ExportRequested is the durable path.
  const runner = startExportRunner(deps);
  deps.runNow = runner.kick;
  const app = createApp(deps, { checkResponses: true });
  return {
    app,
    deps,
    db,
    aws,
    secret,
    clock,
    bucket: fixtures.bucket,
    objects: fixtures.objects,
    call(method, path, o = {}) {
      const headers: Record<string, string> = { ...o.headers };
      if (o.as)
        headers[IDENTITY_HEADER] = signedAs(secret, "privacy-svc", bodyless(method, path), {
          identity: o.as,
          channel: "rest",
        });
      return Promise.resolve(app.request(path, { method, headers }));
    },
    inTransaction: (fn) => db.orm.em.fork().transactional((em) => fn(em as EntityManager)),
    async close() {
      await runner.stop();
      await fixtures.delete();
      await db.close();
    },
  };
}
