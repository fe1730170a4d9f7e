import { qualifiedTable } from "@flowstate/shared/seam/table";
import type { OffersDeps } from "../deps.ts";

type Deps = Pick<OffersDeps, "orm" | "schema" | "sellers">;

/**
 * Enrolls every connected tenant that has no watch row yet: tenants connected before the agreement
 * watch existed (or whose ConnectorConnected this service never consumed) are otherwise watched only
 * from their first agreements read. The list is connector-svc's ids-only route (contracts
 * internal.marketplace_connectors.list, offers-svc among its callers). Existing rows are left as
 * they are (ON CONFLICT DO NOTHING: no poll is moved, no baseline redone); a new row is due at once
 * and its first full pass is the silent baseline like any enrollment. A tenant disconnected since
 * the list was read is found without a connector at its poll and dropped (poll-tenant.ts).
 * Returns how many tenants were newly enrolled.
 */
export async function backfillWatches(deps: Deps): Promise<number> {
  const tenants = await deps.sellers.connectedTenants();
  if (tenants.length === 0) return 0;
  const res = await deps.orm.em.fork().execute<{ affectedRows?: number }>(
    `INSERT INTO ${qualifiedTable(deps.schema, "agreement_watch")} (tenant_id)
       SELECT jsonb_array_elements_text(?::jsonb) ON CONFLICT (tenant_id) DO NOTHING`,
    // One parameter however many tenants (the driver would spread an array into a list).
    [JSON.stringify(tenants)],
    "run",
  );
  return res.affectedRows ?? 0;
}
