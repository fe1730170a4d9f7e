import { qualifiedTable } from "@flowstate/shared/seam/table";
import type { EntityManager } from "@mikro-orm/postgresql";
import type { OffersDeps } from "../deps.ts";

type Deps = Pick<OffersDeps, "schema" | "wakeTracker">;

/**
 * The tenant has a connector again: the change sets the tracker left alone while it had none
 * (`untracked_reason = 'disconnected'`) are due at once. A connector to another seller account
 * does not know them: their polls then fail and back off like any failing poll.
 */
export async function resumeTenantChanges(em: EntityManager, deps: Deps, tenantId: string): Promise<void> {
  const res = await em.execute<{ affectedRows?: number }>(
    `UPDATE ${qualifiedTable(deps.schema, "offer_change")}
        SET untracked_reason = NULL, poll_errors = 0, next_poll_at = now()
      WHERE tenant_id = ? AND untracked_reason = 'disconnected'`,
    [tenantId],
    "run",
  );
  // Before the commit the tracker may not see them yet; its next idle tick does.
  if (res.affectedRows) deps.wakeTracker();
}

/**
 * A soft-deleted tenant's change-set rows, in flight or ended, are deleted: the tenant can no
 * longer read them, nothing polls them again, and they hold its users' ids (the `actor`) and its
 * requests. What happened stays where the platform keeps it: the offers themselves in the seller's
 * AWS account, and the OfferChange events in the audit trail.
 */
export async function deleteTenantChanges(em: EntityManager, deps: Deps, tenantId: string): Promise<void> {
  await em.execute(`DELETE FROM ${qualifiedTable(deps.schema, "offer_change")} WHERE tenant_id = ?`, [tenantId]);
}
