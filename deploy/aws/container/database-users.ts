/**
 * The one-off `database-users` task (compute stack; runbooks first-deploy and deploy): as the
 * cluster's administrator, creates or repairs each service's login role with the password of its
 * secret, its schema and nothing more (shared/src/db/service-roles.ts; audit-svc's owner and
 * insert-only roles from its own SQL). Idempotent: run it after any change of the catalog's
 * databases or of a login's password. Services still migrate their own schema at boot, under the
 * advisory lock (ADR 0013).
 */

import { auditRoleNames, rolesSql, withConnection } from "@flowstate/audit-svc/db/roles";
import { lockRoleChanges, serviceRoleSql, serviceRoles } from "@flowstate/shared/db/service-roles";
import { databaseUrls } from "./entry.ts";

/** `LOGIN_<role>` variables hold each login's password (ECS injects them from the login secrets). */
export function loginPasswords(env: NodeJS.ProcessEnv): Map<string, string> {
  return new Map(
    Object.entries(env)
      .filter(([k, v]) => k.startsWith("LOGIN_") && v)
      .map(([k, v]) => [k.slice("LOGIN_".length).toLowerCase(), v!]),
  );
}

const quote = (s: string) => `'${s.replaceAll("'", "''")}'`;

if (import.meta.main) {
  const env = process.env;
  const adminUrl = databaseUrls(env).DATABASE_URL;
  if (!adminUrl) throw new Error("DATABASE_USERNAME/DATABASE_PASSWORD/DATABASE_HOST (the administrator) are required");
  const prefix = env.SERVICE_PREFIX ?? "flowstate";
  const stage = env.STAGE ?? "dev";
  const database = env.DATABASE_NAME ?? "flowstate";
  const passwords = loginPasswords(env);
  const audit = auditRoleNames({ SERVICE_PREFIX: prefix, STAGE: stage });
  await withConnection(adminUrl, (em) =>
    em.transactional(async (tx) => {
      await lockRoleChanges(tx);
      for (const role of serviceRoles(prefix, stage)) await tx.execute(serviceRoleSql(role, database));
      await tx.execute(rolesSql(audit, "audit", database));
      for (const [role, password] of passwords) {
        if (!/^[a-z_][a-z0-9_]{0,62}$/.test(role)) throw new Error(`invalid role ${role}`);
        await tx.execute(`ALTER ROLE "${role}" PASSWORD ${quote(password)}`);
      }
    }),
  );
  console.log(`database-users: ${passwords.size} login(s) ensured`);
}
