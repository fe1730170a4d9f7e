import { tenantTombstones } from "@flowstate/shared/db/tenant-tombstones";
import { qualifiedTable } from "@flowstate/shared/seam/table";
import type { EntityManager } from "@mikro-orm/postgresql";
import type { NotifyDeps } from "../deps.ts";

/** The tenants this service forgot, and the lock that orders their events with the forgetting. */
export const notifyTombstones = (deps: Pick<NotifyDeps, "schema">) =>
  tenantTombstones(qualifiedTable(deps.schema, "forgotten_tenant"), "flowstate.notify.tenant");

/**
 * A soft-deleted tenant is told nothing more: its endpoints (deliveries with them), messages and
 * pending personal mails go, and the tenant is remembered so that its events delivered after this
 * are dropped (enqueue-message.ts, offer-result.ts) instead of re-creating them.
 */
export async function forgetTenant(em: EntityManager, deps: NotifyDeps, tenantId: string): Promise<void> {
  await notifyTombstones(deps).forget(em, tenantId);
  await em.execute(`DELETE FROM ${qualifiedTable(deps.schema, "endpoint")} WHERE tenant_id = ?`, [tenantId]);
  await em.execute(`DELETE FROM ${qualifiedTable(deps.schema, "message")} WHERE tenant_id = ?`, [tenantId]);
  await em.execute(`DELETE FROM ${qualifiedTable(deps.schema, "person_mail")} WHERE tenant_id = ?`, [tenantId]);
}
