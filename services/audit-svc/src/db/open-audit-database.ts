import { type Database, openDatabase } from "@flowstate/shared/db/open-database";
import { platformMigrations } from "@flowstate/shared/db/platform-migrations";
import type { Logger } from "@flowstate/shared/log/logger";
import { migrations, serviceGrants } from "./migrations.ts";
import { assertInsertOnlyRole, auditRoleNames, provisionRoles, roleOf, urlAs } from "./roles.ts";

/**
 * Opens audit's database the way the roles require (README "Database roles"):
 *
 * 1. With the owner's login (when given): apply the migrations under the runner's lock, grant the
 *    service's role (the user of `serviceUrl`) its privileges, and close that connection.
 * 2. With the service's login: connect without migrating (it may not run DDL), check that every
 *    migration is applied, and refuse a role that could change audit rows.
 */
export async function openAuditDatabase(options: {
  serviceUrl: string;
  ownerUrl?: string | undefined;
  schema: string;
  logger?: Logger;
  poolMax?: number;
}): Promise<Database> {
  const { schema, logger } = options;
  if (options.ownerUrl) {
    const owner = await openDatabase({
      url: options.ownerUrl,
      schema,
      entities: [],
      migrations,
      pool: { max: 1 },
      ...(logger ? { logger } : {}),
    });
    try {
      await owner.em.fork().execute(serviceGrants(schema, roleOf(options.serviceUrl)));
    } finally {
      await owner.close();
    }
  }
  const orm = await openDatabase({
    url: options.serviceUrl,
    schema,
    entities: [],
    migrations: [],
    migrate: false,
    pool: { max: options.poolMax ?? 10 },
  });
  try {
    const applied = new Set(
      (await orm.em.fork().execute<{ name: string }[]>(`SELECT name FROM "${schema}".schema_migration`)).map(
        (r) => r.name,
      ),
    );
    const missing = [...platformMigrations, ...migrations].map((m) => m.name).filter((n) => !applied.has(n));
    if (missing.length)
      throw new Error(
        `schema ${schema} lacks migrations ${missing.join(", ")}: start once with AUDIT_OWNER_DATABASE_URL (README "Database roles")`,
      );
    await assertInsertOnlyRole(orm.em.fork(), schema);
  } catch (err) {
    await orm.close();
    throw err;
  }
  return orm;
}

/**
 * The two logins from the configuration. With `AUDIT_PROVISION_ROLES` (local trust-auth servers
 * only) `DATABASE_URL` is an administrator: the roles and the schema are created, and both logins
 * are that server as those roles, without passwords.
 */
export async function databaseLogins(config: {
  DATABASE_URL: string;
  DATABASE_SCHEMA: string;
  AUDIT_OWNER_DATABASE_URL?: string | undefined;
  AUDIT_PROVISION_ROLES: boolean;
  SERVICE_PREFIX: string;
  STAGE: string;
}): Promise<{ serviceUrl: string; ownerUrl?: string | undefined }> {
  if (!config.AUDIT_PROVISION_ROLES)
    return { serviceUrl: config.DATABASE_URL, ownerUrl: config.AUDIT_OWNER_DATABASE_URL };
  const roles = auditRoleNames(config);
  await provisionRoles(config.DATABASE_URL, roles, config.DATABASE_SCHEMA);
  return { serviceUrl: urlAs(config.DATABASE_URL, roles.service), ownerUrl: urlAs(config.DATABASE_URL, roles.owner) };
}
