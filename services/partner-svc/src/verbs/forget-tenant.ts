import type { EntityManager } from "@mikro-orm/postgresql";

/** Deletes a soft-deleted tenant's partner sync state (tenant data; nothing of it is retained). */
export async function forgetTenant(em: EntityManager, schema: string, tenantId: string): Promise<void> {
  await em.execute(`DELETE FROM "${schema}".partner_opportunity WHERE tenant_id = ?`, [tenantId], "run");
  await em.execute(`DELETE FROM "${schema}".partner_engagement WHERE tenant_id = ?`, [tenantId], "run");
}
