import { assertSchemaName } from "@flowstate/shared/db/migrate";
import { lockRoleChanges } from "@flowstate/shared/db/service-roles";
import { withConnection } from "@flowstate/shared/db/with-connection";
import type { EntityManager } from "@mikro-orm/postgresql";

/** The two roles of audit's schema: who owns (and migrates) it, and whom the service connects as. */
export interface AuditRoles {
  owner: string;
  service: string;
}

const ROLE_NAME = /^[a-z_][a-z0-9_]{0,62}$/;

/** `<prefix>_<stage>_audit_owner` and `<prefix>_<stage>_audit_svc` (PostgreSQL roles are per cluster, hence the stage). */
export function auditRoleNames(env: { SERVICE_PREFIX: string; STAGE: string }): AuditRoles {
  const base = `${env.SERVICE_PREFIX}_${env.STAGE}_audit`.replaceAll("-", "_");
  return { owner: `${base}_owner`, service: `${base}_svc` };
}

/** The user a postgres:// URL logs in as (the default `postgres` when it names none). */
export function roleOf(url: string): string {
  return decodeURIComponent(new URL(url).username) || "postgres";
}

/** The same server and database, logging in as `role` (no password: trust auth, local only). */
export function urlAs(url: string, role: string): string {
  const u = new URL(url);
  u.username = role;
  u.password = "";
  return u.toString();
}

/** One short-lived administration connection (shared/src/db/with-connection.ts), as audit's callers import it. */
export { withConnection };

/**
 * What an operator runs once per database, as an administrator with CREATEROLE (README "Database
 * roles"); `provisionRoles` runs the same statements for the local stack and the tests. Passwords
 * are the operator's business (`ALTER ROLE … PASSWORD`, or IAM authentication on RDS).
 */
export function rolesSql(roles: AuditRoles, schema: string, database: string): string {
  assertSchemaName(schema);
  for (const r of [roles.owner, roles.service])
    if (!ROLE_NAME.test(r)) throw new Error(`invalid role name ${JSON.stringify(r)}`);
  if (roles.owner === roles.service) throw new Error("the owner and the service's role must differ");
  const create = (role: string) =>
    `DO $$ BEGIN CREATE ROLE "${role}" LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE NOBYPASSRLS NOINHERIT; ` +
    `EXCEPTION WHEN duplicate_object THEN NULL; END $$;`;
  return [
    create(roles.owner),
    create(roles.service),
    // The owner runs the migrations: the runner begins with CREATE SCHEMA IF NOT EXISTS, which
    // PostgreSQL checks against the database's CREATE privilege even when the schema exists.
    `GRANT CONNECT, CREATE ON DATABASE "${database}" TO "${roles.owner}";`,
    `GRANT CONNECT ON DATABASE "${database}" TO "${roles.service}";`,
    `CREATE SCHEMA IF NOT EXISTS "${schema}" AUTHORIZATION "${roles.owner}";`,
  ].join("\n");
}

/**
 * Creates the two roles and the schema (idempotent), as an administrator. Serialised with every
 * other role provisioner (`lockRoleChanges`): roles are per cluster, parallel test files provision
 * the same ones, and concurrent grants on the database fail.
 */
export async function provisionRoles(adminUrl: string, roles: AuditRoles, schema: string): Promise<void> {
  const database = new URL(adminUrl).pathname.slice(1);
  await withConnection(adminUrl, (em) =>
    em.transactional(async (tx) => {
      await lockRoleChanges(tx);
      await tx.execute(rolesSql(roles, schema, database));
    }),
  );
}

/**
 * Refuses to run the service as a role that could change audit rows: a superuser, a role that
 * bypasses row security, or the schema's owner. Called on the service's own connection at boot.
 */
export async function assertInsertOnlyRole(em: EntityManager, schema: string): Promise<void> {
  const [row] = await em.execute<Record<string, unknown>[]>(
    `SELECT r.rolsuper AS superuser, r.rolbypassrls AS bypass, n.nspowner = r.oid AS owner,
            has_table_privilege(r.oid, format('%I.audit_event', ?::text), 'UPDATE, DELETE, TRUNCATE') AS can_change
       FROM pg_roles r LEFT JOIN pg_namespace n ON n.nspname = ?
      WHERE r.rolname = current_user`,
    [schema, schema],
  );
  if (!row) throw new Error("cannot read the connecting role");
  const reasons = [
    row.superuser && "it is a superuser",
    row.bypass && "it bypasses row security",
    row.owner && `it owns the schema ${schema}`,
    row.can_change && "it may UPDATE, DELETE or TRUNCATE audit_event",
  ].filter(Boolean);
  if (reasons.length)
    throw new Error(
      `audit-svc must connect as its insert-only role, not this one (${reasons.join("; ")}); see README "Database roles"`,
    );
}
