import { qualifiedTable } from "@flowstate/shared/seam/table";
import type { OffersDeps } from "../deps.ts";

export interface ClaimedWatch {
  tenant_id: string;
  page_token: string | null;
  baseline_done: boolean;
  poll_errors: number;
}

type Deps = Pick<OffersDeps, "orm" | "schema" | "agreementWatchIntervalMs">;

/** A read of a tenant whose role refused SearchAgreements tries again after this, whatever the interval. */
export const DENIED_READ_RETRY_SECONDS = 5;

/**
 * Takes up to `limit` watched tenants that are due (or the one tenant `only`, for its read) and
 * moves their `next_poll_at` one interval ahead in the same statement (SKIP LOCKED: replicas
 * never take the same tenant). Whoever polls, the background watch or a read, nobody calls
 * SearchAgreements for that tenant again before then: at most one page per tenant per interval.
 * The one exception returns no page: a read of a tenant whose role refused the call (the legacy
 * policy) retries after DENIED_READ_RETRY_SECONDS, so a stack update shows at once, not an
 * interval later.
 */
export async function claimDueWatches(deps: Deps, limit: number, only?: string): Promise<ClaimedWatch[]> {
  const table = qualifiedTable(deps.schema, "agreement_watch");
  const due = only
    ? `tenant_id = ? AND (next_poll_at <= now()
         OR (last_failure = 'denied' AND claimed_at <= now() - make_interval(secs => ${DENIED_READ_RETRY_SECONDS})))`
    : "next_poll_at <= now()";
  return deps.orm.em.fork().execute<ClaimedWatch[]>(
    `UPDATE ${table} AS w
        SET next_poll_at = now() + make_interval(secs => ?), claimed_at = now()
       FROM (SELECT tenant_id FROM ${table}
              WHERE ${due}
              ORDER BY next_poll_at
              LIMIT ?
              FOR UPDATE SKIP LOCKED) AS due
      WHERE w.tenant_id = due.tenant_id
      RETURNING w.tenant_id, w.page_token, w.baseline_done, w.poll_errors`,
    [deps.agreementWatchIntervalMs / 1000, ...(only ? [only] : []), limit],
  );
}
