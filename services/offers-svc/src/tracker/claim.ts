import type { EventActor } from "@flowstate/contracts/events/envelope";
import type { OfferAction } from "@flowstate/contracts/rest/offers/changes";
import { qualifiedTable } from "@flowstate/shared/seam/table";
import type { OffersDeps } from "../deps.ts";
import type { StoredRequest } from "../verbs/record-intent.ts";

export interface ClaimedChange {
  id: string;
  tenant_id: string;
  action: OfferAction;
  offer_id: string | null;
  change_set_id: string | null;
  status: "submitting" | "preparing" | "applying";
  client_token: string;
  request: StoredRequest;
  actor: EventActor;
  request_id: string | null;
  principal: "backend" | "mcp-execution";
  trace: string | null;
  polls: number;
  poll_errors: number;
}

/** How long a claimed change set is left alone if its poller dies before recording anything. */
export const LEASE_SECONDS = 30;

/**
 * Takes up to `limit` tracked change sets that are due (not those of a disconnected tenant) and moves their `next_poll_at` LEASE_SECONDS
 * ahead in the same statement (SKIP LOCKED: replicas never take the same row). Whatever happens
 * next, nobody polls them again before then: that is the per-change-set rate bound, independent
 * of how many trackers run or how often they tick. The poller sets the real next time after
 * (at least 2 s after its poll, backoff.ts).
 */
export async function claimDue(deps: OffersDeps, limit: number): Promise<ClaimedChange[]> {
  return deps.orm.em.fork().execute<ClaimedChange[]>(
    `UPDATE ${qualifiedTable(deps.schema, "offer_change")} AS c
        SET next_poll_at = now() + make_interval(secs => ?)
       FROM (SELECT id FROM ${qualifiedTable(deps.schema, "offer_change")}
              WHERE status IN ('submitting', 'preparing', 'applying') AND untracked_reason IS NULL
                AND next_poll_at <= now()
              ORDER BY next_poll_at
              LIMIT ?
              FOR UPDATE SKIP LOCKED) AS due
      WHERE c.id = due.id
      RETURNING c.id, c.tenant_id, c.action, c.offer_id, c.change_set_id, c.status, c.client_token, c.request,
                c.actor, c.request_id, c.principal, c.trace, c.polls, c.poll_errors`,
    [LEASE_SECONDS, limit],
  );
}

/** Milliseconds until the earliest change set is due (undefined when none is in flight). */
export async function msUntilNextDue(deps: OffersDeps): Promise<number | undefined> {
  const [row] = await deps.orm.em.fork().execute<{ ms: number | null }[]>(
    `SELECT extract(epoch FROM min(next_poll_at) - now()) * 1000 AS ms FROM ${qualifiedTable(deps.schema, "offer_change")}
      WHERE status IN ('submitting', 'preparing', 'applying') AND untracked_reason IS NULL`,
  );
  return row?.ms === null || row?.ms === undefined ? undefined : Math.max(0, Number(row.ms));
}
