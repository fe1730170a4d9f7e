import { qualifiedTable } from "@flowstate/shared/seam/table";
import type { EntityManager } from "@mikro-orm/postgresql";
import type { NotifyDeps } from "../deps.ts";

/** A soft-deleted tenant is told nothing more: its endpoints (deliveries with them), messages and pending personal mails go. */
export async function forgetTenant(em: EntityManager, deps: NotifyDeps, tenantId: string): Promise<void> {
  await em.execute(`DELETE FROM ${qualifiedTable(deps.schema, "endpoint")} WHERE tenant_id = ?`, [tenantId]);
  await em.execute(`DELETE FROM ${qualifiedTable(deps.schema, "message")} WHERE tenant_id = ?`, [tenantId]);
  await em.execute(`DELETE FROM ${qualifiedTable(deps.schema, "person_mail")} WHERE tenant_id = ?`, [tenantId]);
}
