import type { EntityManager } from "@mikro-orm/postgresql";

/**
 * A service's record of the tenants it forgot (TenantSoftDeleted), so that an event of the tenant
 * delivered after the forgetting (EventBridge and SQS keep no order) is dropped instead of
 * re-creating the tenant's rows. The table is the service's own (`tenant_id text PRIMARY KEY,
 * forgotten_at timestamptz NOT NULL`, in its migrations); the tenant's advisory lock, held shared by
 * an event's transaction and exclusively by the forgetting, serialises the two: without it an event
 * applied concurrently with the forgetting (each in its own consumer transaction) could commit rows
 * the forgetting's DELETEs did not see.
 *
 * @example
 * const tombstones = tenantTombstones(qualifiedTable(schema, "forgotten_tenant"), "flowstate.notify.tenant");
 * if (await tombstones.forgotten(em, tenantId)) return; // in an event's transaction
 * await tombstones.forget(em, tenantId); // in TenantSoftDeleted's, before its DELETEs
 */
export function tenantTombstones(table: string, lockNamespace: string) {
  const lock = (em: EntityManager, tenantId: string, mode: "shared" | "exclusive") =>
    em.execute(
      `SELECT ${mode === "shared" ? "pg_advisory_xact_lock_shared" : "pg_advisory_xact_lock"}(hashtext(?), hashtext(?))`,
      [lockNamespace, tenantId],
    );
  return {
    /** Takes the tenant's lock exclusively and records it as forgotten; then delete its rows in the same transaction. */
    async forget(em: EntityManager, tenantId: string): Promise<void> {
      await lock(em, tenantId, "exclusive");
      await em.execute(
        `INSERT INTO ${table} (tenant_id, forgotten_at) VALUES (?, now()) ON CONFLICT DO NOTHING`,
        [tenantId],
        "run",
      );
    },
    /** Takes the tenant's lock shared (to the end of the transaction) and tells whether it was forgotten. */
    async forgotten(em: EntityManager, tenantId: string): Promise<boolean> {
      await lock(em, tenantId, "shared");
      const rows = await em.execute(`SELECT 1 FROM ${table} WHERE tenant_id = ?`, [tenantId]);
      return rows.length > 0;
    },
  };
}
