import { lockRoleChanges } from "../db/service-roles.ts";
import { withConnection } from "../db/with-connection.ts";

/**
 * Drops a test's throwaway schemas and roles, as the administrator of `adminUrl`, under the lock
 * every role provisioner takes (`lockRoleChanges`): `DROP OWNED BY` revokes the role's grant on the
 * database, which rewrites the database's pg_database row like a GRANT does, and unlocked it failed
 * with "tuple concurrently updated" beside another file's provisioning (a four-worker run).
 */
export async function dropRoles(adminUrl: string, drop: { schemas: readonly string[]; roles: readonly string[] }) {
  await withConnection(adminUrl, (em) =>
    em.transactional(async (tx) => {
      await lockRoleChanges(tx);
      for (const s of drop.schemas) await tx.execute(`DROP SCHEMA IF EXISTS "${s}" CASCADE`);
      for (const r of drop.roles) {
        const [exists] = await tx.execute<{ n: number }[]>("SELECT 1 AS n FROM pg_roles WHERE rolname = ?", [r]);
        if (!exists) continue;
        await tx.execute(`DROP OWNED BY "${r}"`);
        await tx.execute(`DROP ROLE "${r}"`);
      }
    }),
  );
}
