import type { AgreementViewSummary } from "@aws-sdk/client-marketplace-agreement";
import type { Agreement } from "@flowstate/contracts/rest/offers/agreements";

/** The fields the watch records and compares (the REST Agreement's, in its column order). */
export const AGREEMENT_FIELDS = [
  "status",
  "offer_id",
  "product_id",
  "buyer_account_id",
  "accepted_at",
  "start_time",
  "end_time",
] as const;

const iso = (d: Date | undefined) => d?.toISOString();

const TIMES = new Set<string>(["accepted_at", "start_time", "end_time", "synced_at"]);

/** The columns to SELECT, timestamps as the API writes them (`…T…Z`, milliseconds), as AWS gave them. */
export const selectColumns = (columns: readonly string[]) =>
  columns
    .map((c) => (TIMES.has(c) ? `to_char(${c} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS ${c}` : c))
    .join(", ");

/** An AWS agreement summary as Flowstate shows it: lower-case status, ids, ISO dates; absent fields left out. */
export function agreementOf(a: AgreementViewSummary): Agreement {
  return {
    agreement_id: a.agreementId ?? "",
    status: (a.status ?? "ACTIVE").toLowerCase() as Agreement["status"],
    ...(a.proposalSummary?.offerId ? { offer_id: a.proposalSummary.offerId } : {}),
    ...(a.proposalSummary?.resources?.[0]?.id ? { product_id: a.proposalSummary.resources[0].id } : {}),
    ...(a.acceptor?.accountId ? { buyer_account_id: a.acceptor.accountId } : {}),
    ...(a.acceptanceTime ? { accepted_at: iso(a.acceptanceTime) } : {}),
    ...(a.startTime ? { start_time: iso(a.startTime) } : {}),
    ...(a.endTime ? { end_time: iso(a.endTime) } : {}),
  };
}
