import type { EventActor } from "@flowstate/contracts/events/envelope";
import type { OfferAction } from "@flowstate/contracts/rest/offers/changes";
import { emitEvent } from "@flowstate/shared/seam/emit-event";
import { qualifiedTable } from "@flowstate/shared/seam/table";
import type { OffersDeps } from "../deps.ts";

type Acknowledged = {
  tenant_id: string;
  action: OfferAction;
  offer_id: string | null;
  actor: EventActor;
  request_id: string | null;
  principal: "backend" | "mcp-execution";
  trace: string | null;
  status: string;
};

/**
 * AWS acknowledged the change set: its id is recorded and OfferChangeRequested enqueued in one
 * transaction. Only the caller that moves the row out of `submitting` (or `rejected`: a
 * duplicate's StartChangeSet failed while this one's succeeded) emits, so duplicates (a
 * concurrent request with the same key, the tracker's resubmission) emit nothing. The first poll
 * is due 2 s later. Returns the row's status.
 */
export async function recordAcknowledged(deps: OffersDeps, id: string, changeSetId: string): Promise<string> {
  return deps.orm.em.fork().transactional(async (em) => {
    const [row] = await em.execute<Acknowledged[]>(
      `UPDATE ${qualifiedTable(deps.schema, "offer_change")}
          SET change_set_id = ?, status = 'preparing', next_poll_at = now() + interval '2 seconds'
        WHERE id = ? AND status IN ('submitting', 'rejected')
        RETURNING tenant_id, action, offer_id, actor, request_id, principal, trace, status`,
      [changeSetId, id],
    );
    if (!row) {
      const [current] = await em.execute<{ status: string }[]>(
        `SELECT status FROM ${qualifiedTable(deps.schema, "offer_change")} WHERE id = ?`,
        [id],
      );
      return current?.status ?? "preparing";
    }
    emitEvent(
      "offers-svc",
      em,
      "OfferChangeRequested.v2",
      {
        tenant_id: row.tenant_id,
        change_set_id: changeSetId,
        action: row.action,
        ...(row.offer_id ? { offer_id: row.offer_id } : {}),
        principal: row.principal,
      },
      {
        tenant_id: row.tenant_id,
        actor: row.actor,
        request_id: row.request_id ?? undefined,
        trace: row.trace ?? undefined,
      },
    );
    return row.status;
  });
}
