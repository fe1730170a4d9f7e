import type { Agreement, SellerState } from "../seller/types.ts";

// awsJson timestamps travel as epoch seconds.
const epoch = (ms: number) => ms / 1000;

/** An AgreementViewSummary (SearchAgreements); DescribeAgreement adds `estimatedCharges`. */
export function agreementSummary(seller: SellerState, a: Agreement) {
  return {
    agreementId: a.id,
    acceptanceTime: epoch(a.acceptanceTime),
    startTime: epoch(a.startTime),
    ...(a.endTime !== null ? { endTime: epoch(a.endTime) } : {}),
    agreementType: "PurchaseAgreement",
    acceptor: { accountId: a.acceptorAccountId },
    proposer: { accountId: seller.account },
    proposalSummary: {
      resources: [{ id: a.productId, type: "SaaSProduct" }],
      offerId: a.offerId,
      ...(a.offerSetId ? { offerSetId: a.offerSetId } : {}),
    },
    status: a.status,
  };
}
