import type { OfferChange } from "@flowstate/contracts/rest/offers/changes";
import { notFound } from "@flowstate/shared/errors/domain-error";
import { qualifiedTable } from "@flowstate/shared/seam/table";
import type { ServiceContext } from "../context.ts";

export type ChangeRow = {
  change_set_id: string;
  action: OfferChange["action"];
  status: OfferChange["status"];
  offer_id: string | null;
  result_offer_id: string | null;
  submitted_at: Date;
  completed_at: Date | null;
  failure_code: OfferChange["failure_code"] | null;
  changes: OfferChange["changes"] | null;
};

/** The columns a change view is made of (`changeView`). */
export const CHANGE_COLUMNS =
  "change_set_id, action, status, offer_id, result_offer_id, submitted_at, completed_at, failure_code, changes";

/**
 * A change set as the tracker last saw it (never a call to AWS: the tracker alone polls, at most
 * every 2 s). Another tenant's change set is 404, like a missing one.
 */
export async function getChange({
  ctx,
  changeSetId,
}: {
  ctx: ServiceContext;
  changeSetId: string;
}): Promise<OfferChange> {
  const [row] = await ctx.deps.orm.em.fork().execute<ChangeRow[]>(
    `SELECT ${CHANGE_COLUMNS} FROM ${qualifiedTable(ctx.deps.schema, "offer_change")}
      WHERE tenant_id = ? AND change_set_id = ?`,
    [ctx.tenantId, changeSetId],
  );
  if (!row) throw notFound("change set");
  return changeView(row);
}

/** A tracked change set as the API shows it. */
export function changeView(row: ChangeRow): OfferChange {
  const offerId = row.action === "clone" || row.action === "create" ? row.result_offer_id : row.offer_id;
  return {
    change_set_id: row.change_set_id,
    action: row.action,
    status: row.status,
    ...(offerId ? { offer_id: offerId } : {}),
    ...(row.action === "clone" && row.offer_id ? { source_offer_id: row.offer_id } : {}),
    submitted_at: new Date(row.submitted_at).toISOString(),
    ...(row.completed_at ? { completed_at: new Date(row.completed_at).toISOString() } : {}),
    ...(row.failure_code ? { failure_code: row.failure_code } : {}),
    changes: row.changes ?? [],
  };
}
