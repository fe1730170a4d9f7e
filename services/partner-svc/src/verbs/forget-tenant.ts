import type { EntityManager } from "@mikro-orm/postgresql";

/**
 * Serialises a tenant's partner events with its forgetting: an event holds the tenant's lock
 * shared, the forgetting exclusively. Without it an event applied concurrently with the forgetting
 * (each in its own consumer transaction) could commit rows the DELETE did not see.
 */
export const lockTenant = (em: EntityManager, tenantId: string, mode: "shared" | "exclusive") =>
  em.execute(
    `SELECT ${mode === "shared" ? "pg_advisory_xact_lock_shared" : "pg_advisory_xact_lock"}(hashtext('flowstate.partner.tenant'), hashtext(?))`,
    [tenantId],
  );

/**
 * Deletes a soft-deleted tenant's partner sync state (tenant data; nothing of it is retained) and
 * remembers the tenant, so that a partner event delivered after this (EventBridge and SQS keep no
 * order) is dropped instead of re-creating its rows (applyPartnerEvent).
 */
export async function forgetTenant(em: EntityManager, schema: string, tenantId: string): Promise<void> {
  await lockTenant(em, tenantId, "exclusive");
  await em.execute(
    `INSERT INTO "${schema}".partner_forgotten_tenant (tenant_id, forgotten_at) VALUES (?, now()) ON CONFLICT DO NOTHING`,
    [tenantId],
    "run",
  );
  await em.execute(`DELETE FROM "${schema}".partner_opportunity WHERE tenant_id = ?`, [tenantId], "run");
  await em.execute(`DELETE FROM "${schema}".partner_engagement WHERE tenant_id = ?`, [tenantId], "run");
}

/** Whether the tenant was forgotten; call with its lock held (`lockTenant`). */
export async function isForgotten(em: EntityManager, schema: string, tenantId: string): Promise<boolean> {
  const rows = await em.execute(`SELECT 1 FROM "${schema}".partner_forgotten_tenant WHERE tenant_id = ?`, [tenantId]);
  return rows.length > 0;
}
