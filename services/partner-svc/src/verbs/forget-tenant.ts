import { tenantTombstones } from "@flowstate/shared/db/tenant-tombstones";
import type { EntityManager } from "@mikro-orm/postgresql";

/** The tenants this service forgot, and the lock that orders their events with the forgetting. */
export const partnerTombstones = (schema: string) =>
  tenantTombstones(`"${schema}".partner_forgotten_tenant`, "flowstate.partner.tenant");

/**
 * Deletes a soft-deleted tenant's partner sync state (tenant data; nothing of it is retained) and
 * remembers the tenant, so that a partner event delivered after this is dropped instead of
 * re-creating its rows (applyPartnerEvent).
 */
export async function forgetTenant(em: EntityManager, schema: string, tenantId: string): Promise<void> {
  await partnerTombstones(schema).forget(em, tenantId);
  await em.execute(`DELETE FROM "${schema}".partner_opportunity WHERE tenant_id = ?`, [tenantId], "run");
  await em.execute(`DELETE FROM "${schema}".partner_engagement WHERE tenant_id = ?`, [tenantId], "run");
}
