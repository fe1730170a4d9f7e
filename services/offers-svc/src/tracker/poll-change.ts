import { type ChangeSummary, DescribeChangeSetCommand } from "@aws-sdk/client-marketplace-catalog";
import { emitEvent } from "@flowstate/shared/seam/emit-event";
import { qualifiedTable } from "@flowstate/shared/seam/table";
import type { OffersDeps } from "../deps.ts";
import { changeErrorMessage } from "../marketplace/change-errors.ts";
import { pollDelaySeconds } from "./backoff.ts";
import type { ClaimedChange } from "./claim.ts";

const TERMINAL = new Set(["succeeded", "failed", "cancelled"]);

/** Each change's result in words a seller understands (AWS's codes kept, AWS's text not). */
function changeResults(list: ChangeSummary[]) {
  return list.map((c) => ({
    change_type: c.ChangeType ?? "",
    ...(c.Entity?.Identifier && !c.Entity.Identifier.startsWith("$") ? { offer_id: c.Entity.Identifier } : {}),
    errors: (c.ErrorDetailList ?? []).map((e) => ({
      code: e.ErrorCode ?? "UNKNOWN",
      message: changeErrorMessage(e.ErrorCode ?? "UNKNOWN"),
    })),
  }));
}

/**
 * One DescribeChangeSet of a tracked change set. A status that is not terminal is recorded with
 * the next poll time; a terminal one is recorded together with OfferChangeSucceeded or
 * OfferChangeFailed in one transaction, guarded so that only the first to see the end emits
 * (exactly one event per change set, whatever restarts or replicas there are).
 */
export async function pollChange(deps: OffersDeps, row: ClaimedChange): Promise<void> {
  const out = await deps.sellers.withClients(
    row.tenant_id,
    row.principal,
    ({ catalog }) =>
      catalog.send(new DescribeChangeSetCommand({ Catalog: "AWSMarketplace", ChangeSetId: row.change_set_id ?? "" })),
    // Not connected leaves the change set alone until a reconnect (tracker.ts): asked past the cache.
    { recheckAbsent: true },
  );
  const status = (out.Status ?? "PREPARING").toLowerCase();
  const delay = pollDelaySeconds(row.polls + 1);
  await deps.orm.em.fork().transactional(async (em) => {
    if (!TERMINAL.has(status)) {
      await em.execute(
        `UPDATE ${qualifiedTable(deps.schema, "offer_change")}
            SET status = ?, polls = polls + 1, poll_errors = 0, last_polled_at = now(),
                next_poll_at = now() + make_interval(secs => ?)
          WHERE id = ? AND status IN ('preparing', 'applying')`,
        [status, delay, row.id],
      );
      return;
    }
    const changes = changeResults(out.ChangeSet ?? []);
    // A replacement offer (agreement-based) is a create whose first change is CreateReplacementOffer.
    const created = changes.find(
      (c) => c.change_type === "CreateOffer" || c.change_type === "CreateReplacementOffer",
    )?.offer_id;
    const resultOfferId = row.action === "create" || row.action === "clone" ? created : row.offer_id;
    const [done] = await em.execute<{ id: string }[]>(
      `UPDATE ${qualifiedTable(deps.schema, "offer_change")}
          SET status = ?, polls = polls + 1, poll_errors = 0, last_polled_at = now(), completed_at = now(),
              failure_code = ?, changes = ?, result_offer_id = ?
        WHERE id = ? AND status IN ('preparing', 'applying')
        RETURNING id`,
      [
        status,
        status === "cancelled" ? "CANCELLED" : (out.FailureCode ?? null),
        JSON.stringify(changes),
        resultOfferId ?? null,
        row.id,
      ],
    );
    if (!done) return; // someone else recorded the end first
    const common = {
      tenant_id: row.tenant_id,
      change_set_id: row.change_set_id ?? "",
      action: row.action,
      principal: row.principal,
    };
    const meta = {
      tenant_id: row.tenant_id,
      actor: row.actor,
      request_id: row.request_id ?? undefined,
      trace: row.trace ?? undefined,
    };
    if (status === "succeeded") {
      const offerId = resultOfferId ?? "";
      emitEvent(
        "offers-svc",
        em,
        "OfferChangeSucceeded.v2",
        {
          ...common,
          offer_id: offerId,
          entity_id: offerId,
          ...(row.action === "clone" && row.offer_id ? { source_offer_id: row.offer_id } : {}),
        },
        meta,
      );
    } else {
      const failed = changes.filter((c) => c.errors.length);
      emitEvent(
        "offers-svc",
        em,
        "OfferChangeFailed.v2",
        {
          ...common,
          ...(resultOfferId ? { offer_id: resultOfferId } : {}),
          failure_code:
            status === "cancelled" ? "CANCELLED" : out.FailureCode === "SERVER_FAULT" ? "SERVER_FAULT" : "CLIENT_ERROR",
          error_codes: failed.flatMap((c) => c.errors.map((e) => e.code)),
          changes: failed.map((c) => ({ change_type: c.change_type, error_codes: c.errors.map((e) => e.code) })),
        },
        meta,
      );
    }
  });
}
