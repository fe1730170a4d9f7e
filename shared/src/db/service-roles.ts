import { serviceCatalog } from "@flowstate/contracts/services/catalog";
import type { EntityManager } from "@mikro-orm/postgresql";
import { assertSchemaName } from "./migrate.ts";
import { withConnection } from "./with-connection.ts";

/** One service's PostgreSQL login: the role that owns its schema and nothing else. */
export interface ServiceRole {
  service: string;
  schema: string;
  role: string;
}

const ROLE_NAME = /^[a-z_][a-z0-9_]{0,62}$/;
const DATABASE_NAME = /^[A-Za-z0-9_-]{1,63}$/;

/**
 * The login role of every service with a database but audit-svc (whose two roles, an owner and an
 * insert-only one, it provisions itself: services/audit-svc README, "Database roles"), as
 * `<prefix>_<stage>_<schema>` (roles are per cluster, hence the stage). The schema is the
 * service's name without `-svc`, each service's DATABASE_SCHEMA default.
 *
 * @example
 * serviceRoles("flowstate", "dev"); // [{ service: "connector-svc", schema: "connector", role: "flowstate_dev_connector" }, …]
 */
export function serviceRoles(prefix: string, stage: string): ServiceRole[] {
  return Object.entries(serviceCatalog)
    .filter(([name, e]) => e.database && name !== "audit-svc")
    .map(([service]) => {
      const schema = service.replace(/-svc$/, "").replaceAll("-", "_");
      return { service, schema, role: `${prefix}_${stage}_${schema}`.replaceAll("-", "_").toLowerCase() };
    });
}

/** The same server and database, logging in as `role` (no password: trust auth, local stacks only). */
export function databaseUrlAs(url: string, role: string): string {
  const u = new URL(url);
  u.username = role;
  u.password = "";
  return u.toString();
}

/**
 * The statements that give `role` its schema and nothing more, idempotent. The role is no
 * superuser (a superuser could `SET session_replication_role = replica` and so disable audit-svc's
 * triggers), cannot create roles or databases, and owns the schema and every object in it, so it
 * migrates the schema itself. It gets no CREATE on the database (the migration runner creates a
 * schema only when it is missing) and no USAGE on any other schema: PostgreSQL 15 grants nothing
 * on a schema to PUBLIC, so another service's tables, and audit's, are out of its reach.
 * Objects created earlier by the administrator (a stack that ran before roles existed) are handed
 * over to the role.
 */
export function serviceRoleSql({ role, schema }: ServiceRole, database: string): string {
  assertSchemaName(schema);
  if (!ROLE_NAME.test(role)) throw new Error(`invalid role name ${JSON.stringify(role)}`);
  if (!DATABASE_NAME.test(database)) throw new Error(`invalid database name ${JSON.stringify(database)}`);
  return `
    DO $$ BEGIN
      CREATE ROLE "${role}" LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE NOBYPASSRLS NOINHERIT NOREPLICATION;
    EXCEPTION WHEN duplicate_object OR unique_violation THEN NULL; END $$;
    ALTER ROLE "${role}" NOSUPERUSER NOCREATEDB NOCREATEROLE NOBYPASSRLS NOINHERIT NOREPLICATION;
    GRANT CONNECT ON DATABASE "${database}" TO "${role}";
    CREATE SCHEMA IF NOT EXISTS "${schema}" AUTHORIZATION "${role}";
    ALTER SCHEMA "${schema}" OWNER TO "${role}";
    DO $$ DECLARE o record; BEGIN
      FOR o IN SELECT c.relname, c.relkind FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
                WHERE n.nspname = '${schema}' AND c.relkind IN ('r', 'p', 'v', 'm', 'f', 'S')
                  AND c.relowner <> '"${role}"'::regrole
                  -- a sequence owned by a column follows its table
                  AND NOT (c.relkind = 'S' AND EXISTS (SELECT 1 FROM pg_depend d
                        WHERE d.objid = c.oid AND d.deptype IN ('a', 'i') AND d.classid = 'pg_class'::regclass))
      LOOP
        EXECUTE format('ALTER %s %I.%I OWNER TO %I',
          CASE o.relkind WHEN 'S' THEN 'SEQUENCE' WHEN 'v' THEN 'VIEW' WHEN 'm' THEN 'MATERIALIZED VIEW'
                         WHEN 'f' THEN 'FOREIGN TABLE' ELSE 'TABLE' END,
          '${schema}', o.relname, '${role}');
      END LOOP;
      FOR o IN SELECT p.oid::regprocedure AS fn FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
                WHERE n.nspname = '${schema}' AND p.proowner <> '"${role}"'::regrole
      LOOP
        EXECUTE format('ALTER ROUTINE %s OWNER TO %I', o.fn, '${role}');
      END LOOP;
      FOR o IN SELECT t.oid::regtype AS ty FROM pg_type t JOIN pg_namespace n ON n.oid = t.typnamespace
                WHERE n.nspname = '${schema}' AND t.typtype IN ('e', 'd') AND t.typowner <> '"${role}"'::regrole
      LOOP
        EXECUTE format('ALTER TYPE %s OWNER TO %I', o.ty, '${role}');
      END LOOP;
    END $$;
  `;
}

/**
 * Holds, until `tx` ends, the one lock taken by everything that changes cluster-wide roles or the
 * database's grants: the services' roles here, audit-svc's own two, production's database-users
 * task. Every GRANT … ON DATABASE rewrites the database's row in pg_database, and of two concurrent
 * ones the second fails with "tuple concurrently updated" (a CI run failed so while audit's test
 * harness and another suite provisioned under two different locks).
 */
export async function lockRoleChanges(tx: EntityManager): Promise<void> {
  await tx.execute("SELECT pg_advisory_xact_lock(hashtext('flowstate.service-roles'))");
}

/**
 * Creates (or repairs) every given role and its schema, as the administrator of `adminUrl`, and
 * returns each service's DATABASE_URL (the same server and database, as its role). Used by the
 * local stack's set-up (npm start, docker-compose's bootstrap); production creates one database
 * user per service instead (issue 23). Serialised on an advisory lock: two stacks starting on
 * one server provision the same cluster-wide roles.
 *
 * @example
 * const urls = await provisionServiceRoles(adminUrl, serviceRoles("flowstate", "dev"));
 * env["identity-svc"].DATABASE_URL = urls.get("identity-svc");
 */
export async function provisionServiceRoles(
  adminUrl: string,
  roles: readonly ServiceRole[],
): Promise<Map<string, string>> {
  const database = new URL(adminUrl).pathname.slice(1);
  await withConnection(adminUrl, (em) =>
    em.transactional(async (tx) => {
      await lockRoleChanges(tx);
      for (const r of roles) await tx.execute(serviceRoleSql(r, database));
    }),
  );
  return new Map(roles.map((r) => [r.service, databaseUrlAs(adminUrl, r.role)]));
}
