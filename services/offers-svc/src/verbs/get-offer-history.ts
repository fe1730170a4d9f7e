import type { OfferHistory, OfferHistoryQuery } from "@flowstate/contracts/rest/offers/changes";
import { cursorText, cursorTimestamp, pageCursorCodec } from "@flowstate/shared/http/page-cursor";
import { qualifiedTable } from "@flowstate/shared/seam/table";
import { z } from "zod";
import type { ServiceContext } from "../context.ts";
import { CHANGE_COLUMNS, type ChangeRow, changeView } from "./get-change.ts";

const cursor = pageCursorCodec(z.tuple([cursorTimestamp, cursorText]));

/**
 * The offer's history from the change sets Flowstate tracked (no call to AWS), newest first: those
 * that changed it (update, release, expire, the clone that expired it), the one that created it
 * (create, clone: once it succeeded, AWS having named the offer) and the clones made from it. The
 * change sets still submitting are left out (AWS has not acknowledged them). An offer with none,
 * or another tenant's, answers an empty list: which offers exist is AWS's to say (GET the offer).
 */
export async function getOfferHistory(args: {
  ctx: ServiceContext;
  offerId: string;
  query: OfferHistoryQuery;
}): Promise<OfferHistory> {
  const { ctx, offerId, query } = args;
  const after = query.cursor ? cursor.decode(query.cursor) : null;
  const rows = await ctx.deps.orm.em.fork().execute<(ChangeRow & { id: string; at: string })[]>(
    `SELECT ${CHANGE_COLUMNS}, id, to_char(submitted_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS at
       FROM ${qualifiedTable(ctx.deps.schema, "offer_change")}
      WHERE tenant_id = ? AND change_set_id IS NOT NULL AND (offer_id = ? OR result_offer_id = ?)
        ${after ? "AND (submitted_at, id) < (?::timestamptz, ?)" : ""}
      ORDER BY submitted_at DESC, id DESC
      LIMIT ?`,
    [ctx.tenantId, offerId, offerId, ...(after ?? []), query.limit + 1],
  );
  const page = rows.slice(0, query.limit);
  const last = page.at(-1);
  return {
    changes: page.map(changeView),
    next_cursor: rows.length > query.limit && last ? cursor.encode([last.at, last.id]) : null,
  };
}
