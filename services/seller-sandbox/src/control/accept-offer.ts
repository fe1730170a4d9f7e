import { ID_LENGTH, randomId, seededAccountId } from "../seed/ids.ts";
import { nowOf } from "../seller/clock.ts";
import type { Agreement, SellerState } from "../seller/types.ts";

const YEAR = 365 * 86_400_000;

/**
 * A buyer accepts a released offer, as in AWS Marketplace: a new ACTIVE purchase agreement on the
 * offer's product, starting now (the account's clock), with the offer's terms. The offer must be
 * released; a private offer is accepted by its buyer. Answers why not, as text, when it cannot.
 */
export function acceptOffer(
  seller: SellerState,
  input: { offerId: string; acceptorAccountId?: string | undefined },
): Agreement | string {
  const offer = seller.offers.get(input.offerId);
  if (!offer) return "no such offer";
  if (offer.state !== "Released") return "the offer is not released";
  const buyer = input.acceptorAccountId ?? offer.buyerAccounts[0] ?? seededAccountId(seller.account, "public-buyer");
  if (offer.buyerAccounts.length && !offer.buyerAccounts.includes(buyer)) return "the offer does not target this buyer";
  const now = nowOf(seller);
  const agreement: Agreement = {
    id: randomId("agmt", ID_LENGTH.agmt),
    acceptorAccountId: buyer,
    offerId: offer.id,
    productId: offer.productId,
    acceptanceTime: now,
    startTime: now,
    endTime: now + YEAR,
    status: "ACTIVE",
    terms: structuredClone(offer.terms),
  };
  // Accepting an agreement-based offer replaces the agreement it targets (status REPLACED).
  const replaced = offer.targetAgreementId
    ? seller.agreements.find((a) => a.id === offer.targetAgreementId && a.status === "ACTIVE")
    : undefined;
  if (replaced) replaced.status = "REPLACED";
  seller.agreements.push(agreement);
  return agreement;
}
