import { randomBytes } from "node:crypto";
import { SCOPE_CEILING } from "@flowstate/contracts/auth/tenant-access";
import type { TenantContext, VerifiedIdentity } from "@flowstate/contracts/internal/identity";
import { bodyless, IDENTITY_HEADER } from "@flowstate/shared/auth/identity-assertion";
import { testKeyring } from "@flowstate/shared/auth/keyring";
import { type AwsClients, createAwsClients } from "@flowstate/shared/aws/clients";
import type { Database } from "@flowstate/shared/db/open-database";
import { createLogger, type Logger } from "@flowstate/shared/log/logger";
import { signedAs } from "@flowstate/shared/testing/signed-as";
import type { EntityManager } from "@mikro-orm/postgresql";
import { createApp } from "../app.ts";
import { openAuditDatabase } from "../db/open-audit-database.ts";
import { type AuditRoles, auditRoleNames, provisionRoles, urlAs, withConnection } from "../db/roles.ts";
import type { AuditDeps } from "../deps.ts";
import type { AuditApp } from "../http/env.ts";

/**
 * What the gateway signs for an API key when the test names no tenant: the key's own tenant with
 * its scope's role (a key of a live admin; contracts/src/auth/tenant-access.ts `keyRole`).
 */
const keyTenant = (as: VerifiedIdentity) =>
  as.kind === "api_key" ? { tenant: { tenant_id: as.tenant_id, role: SCOPE_CEILING[as.scope] } } : {};

/** The roles every test schema uses (roles are per cluster; each test has its own schema). */
export const TEST_ROLES: AuditRoles = auditRoleNames({ SERVICE_PREFIX: "flowstate", STAGE: "test" });

/** The administrator URL the tests provision with: the given one, DATABASE_URL, or the local default. */
export const adminUrlOf = (url?: string) =>
  url ?? process.env.DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/flowstate_test";

export interface AuditHarness {
  app: AuditApp;
  deps: AuditDeps;
  /** Connected as the service's insert-only role, as in production. */
  orm: Database;
  schema: string;
  aws: AwsClients;
  secret: string;
  logger: Logger;
  /** Runs `sql` as the schema's owner (search_path = the schema): what an operator could do. */
  asOwner<T = Record<string, unknown>[]>(sql: string, params?: unknown[]): Promise<T>;
  /** Runs `sql` as the administrator (a superuser locally; search_path = the schema). */
  asAdmin<T = Record<string, unknown>[]>(sql: string, params?: unknown[]): Promise<T>;
  /** The logins, for a test that connects on its own (the service's role, the owner). */
  urls: { service: string; owner: string; admin: string };
  call(
    method: string,
    path: string,
    options?: { as?: VerifiedIdentity; tenant?: TenantContext; headers?: Record<string, string> },
  ): Promise<Response>;
  /** Runs `fn` in a transaction as the service's role, as a consumer handler would. */
  inTransaction<T>(fn: (em: EntityManager) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

/**
 * audit-svc as its tests (and other packages' e2e tests) drive it: a throwaway schema owned by the
 * test owner role and migrated by it, the app connected as the test insert-only role (the same two
 * roles production has), and requests signed like the gateway signs them.
 */
export async function startAuditHarness(
  options: {
    prefix?: string;
    secret?: string;
    archive?: Partial<AuditDeps["archive"]>;
    /** An AWS endpoint of the test's own (a dedicated moto); the suite's shared one by default. */
    awsEndpoint?: string;
    adminUrl?: string;
  } = {},
): Promise<AuditHarness> {
  const logger = createLogger({ service: "audit-svc" });
  const admin = adminUrlOf(options.adminUrl);
  const prefix = (options.prefix ?? "audit")
    .toLowerCase()
    .replace(/[^a-z0-9_]/g, "_")
    .slice(0, 20);
  const schema = `t_${prefix}_${randomBytes(6).toString("hex")}`;
  await provisionRoles(admin, TEST_ROLES, schema);
  const urls = { service: urlAs(admin, TEST_ROLES.service), owner: urlAs(admin, TEST_ROLES.owner), admin };
  const orm = await openAuditDatabase({ serviceUrl: urls.service, ownerUrl: urls.owner, schema, logger, poolMax: 5 });
  const aws = createAwsClients({ endpoint: options.awsEndpoint ?? process.env.AWS_ENDPOINT_URL });
  const secret = options.secret ?? randomBytes(32).toString("base64url");
  const deps: AuditDeps = {
    orm,
    schema,
    logger,
    // Keys per caller derived from the same test secret as every other harness (ADR 0014).
    callerKeys: testKeyring("audit-svc", secret),
    s3: aws.data("s3"),
    archive: { bucket: "unset", batchMaxRows: 1000, intervalMs: 60_000, retentionDays: 400, ...options.archive },
    clock: () => new Date(),
  };
  const app = createApp(deps, { checkResponses: true });
  const run =
    (url: string) =>
    <T>(sql: string, params: unknown[] = []) =>
      withConnection(url, (em) =>
        em.transactional(async (tx) => {
          await tx.execute(`SET LOCAL search_path TO "${schema}"`);
          return tx.execute(sql, params) as Promise<T>;
        }),
      );
  return {
    app,
    deps,
    orm,
    schema,
    aws,
    secret,
    logger,
    asOwner: run(urls.owner),
    asAdmin: run(urls.admin),
    urls,
    call(method, path, o = {}) {
      const headers: Record<string, string> = { ...o.headers };
      if (o.as)
        headers[IDENTITY_HEADER] = signedAs(secret, "audit-svc", bodyless(method, path), {
          identity: o.as,
          channel: "rest",
          ...(o.tenant ? { tenant: o.tenant } : keyTenant(o.as)),
        });
      return Promise.resolve(app.request(path, { method, headers }));
    },
    inTransaction: (fn) => orm.em.fork().transactional((em) => fn(em as EntityManager)),
    async close() {
      await orm.close();
      await withConnection(admin, (em) => em.execute(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`));
    },
  };
}
