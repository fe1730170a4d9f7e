import { qualifiedTable } from "@flowstate/shared/seam/table";
import type { EntityManager } from "@mikro-orm/postgresql";
import type { OffersDeps } from "../deps.ts";

type Deps = Pick<OffersDeps, "schema">;

/**
 * Starts watching a tenant's agreements (ConnectorConnected, or its first agreements read): due at
 * once, with a new baseline. A reconnect may name another seller account, so what was recorded
 * for the old one goes first (forgetWatch) when `fresh`.
 */
export async function enrollWatch(em: EntityManager, deps: Deps, tenantId: string, fresh: boolean): Promise<void> {
  if (fresh) await forgetWatch(em, deps, tenantId);
  await em.execute(
    `INSERT INTO ${qualifiedTable(deps.schema, "agreement_watch")} (tenant_id) VALUES (?) ON CONFLICT (tenant_id) DO NOTHING`,
    [tenantId],
  );
}

/**
 * The tenant is no longer watched (disconnected, soft-deleted): its watch row and recorded
 * agreements are deleted. They are AWS's data about the seller's account, read again (as a new
 * baseline, without events) if the tenant connects again; the events already sent stay in the audit trail.
 */
export async function forgetWatch(em: EntityManager, deps: Deps, tenantId: string): Promise<void> {
  await em.execute(`DELETE FROM ${qualifiedTable(deps.schema, "agreement_watch")} WHERE tenant_id = ?`, [tenantId]);
  await em.execute(`DELETE FROM ${qualifiedTable(deps.schema, "agreement")} WHERE tenant_id = ?`, [tenantId]);
}
