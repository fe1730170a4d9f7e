import {
  type Filter,
  SearchAgreementsCommand,
  type SearchAgreementsCommandOutput,
} from "@aws-sdk/client-marketplace-agreement";
import type { AgreementList, ListAgreementsQuery } from "@flowstate/contracts/rest/offers/agreements";
import { DomainError } from "@flowstate/shared/errors/domain-error";
import { AssumeRoleFailed } from "@flowstate/shared/marketplace/seller-sessions";
import type { ServiceContext } from "../context.ts";
import { isAccessDenied, mapUpstreamError } from "../marketplace/upstream-errors.ts";

const iso = (d: Date | undefined) => d?.toISOString();

/**
 * Purchase agreements the seller proposed, latest end first, one AWS page per call. A role that
 * lacks `SearchAgreements` (the policy before 2026-08-31) answers exactly as the interface says:
 * 500 INTERNAL_ERROR, the access-denied cause in the log only (the health endpoint is where the
 * seller learns why).
 */
export async function listAgreements(args: {
  ctx: ServiceContext;
  query: ListAgreementsQuery;
}): Promise<AgreementList> {
  const { ctx, query } = args;
  const filters: Filter[] = [
    { name: "PartyType", values: ["Proposer"] },
    { name: "AgreementType", values: ["PurchaseAgreement"] },
  ];
  if (query.status) filters.push({ name: "Status", values: [query.status.toUpperCase()] });
  let out: SearchAgreementsCommandOutput;
  try {
    out = await ctx.deps.sellers.withClients(ctx.tenantId, ctx.principal, ({ agreement }) =>
      agreement.send(
        new SearchAgreementsCommand({
          catalog: "AWSMarketplace",
          filters,
          sort: { sortBy: "EndTime", sortOrder: "DESCENDING" },
          maxResults: query.limit,
          ...(query.cursor ? { nextToken: query.cursor } : {}),
        }),
      ),
    );
  } catch (err) {
    // AssumeRole refused is the connector's state (health), not the missing SearchAgreements.
    if (isAccessDenied(err) && !(err instanceof AssumeRoleFailed))
      throw new DomainError("internal", "INTERNAL_ERROR", "an internal error occurred", { cause: err });
    throw mapUpstreamError(err, "agreement", ctx);
  }
  return {
    agreements: (out.agreementViewSummaries ?? []).map((a) => ({
      agreement_id: a.agreementId ?? "",
      status: (a.status ?? "ACTIVE").toLowerCase() as AgreementList["agreements"][number]["status"],
      ...(a.proposalSummary?.offerId ? { offer_id: a.proposalSummary.offerId } : {}),
      ...(a.proposalSummary?.resources?.[0]?.id ? { product_id: a.proposalSummary.resources[0].id } : {}),
      ...(a.acceptor?.accountId ? { buyer_account_id: a.acceptor.accountId } : {}),
      ...(a.acceptanceTime ? { accepted_at: iso(a.acceptanceTime) } : {}),
      ...(a.startTime ? { start_time: iso(a.startTime) } : {}),
      ...(a.endTime ? { end_time: iso(a.endTime) } : {}),
    })),
    ...(out.nextToken ? { next_cursor: out.nextToken } : {}),
  };
}
