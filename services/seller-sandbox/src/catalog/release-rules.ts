import { endOfDay } from "../seller/clock.ts";
import type { Offer, SellerState } from "../seller/types.ts";
import { type ChangeError, currencyErrors, isPricingTerm } from "./offer-terms.ts";

/**
 * What ReleaseOffer requires of a private offer ([DOC-PO] asynchronous validations): a draft, a
 * name, buyer accounts, an availability end date in the future, pricing and legal terms, and a
 * currency the seller can be paid in. Every missing piece is reported, not just the first.
 */
export function releaseErrors(offer: Offer, seller: SellerState, now: number): ChangeError[] {
  const errors: ChangeError[] = [];
  if (offer.state !== "Draft")
    errors.push({ ErrorCode: "INVALID_OFFER_STATE", ErrorMessage: `Offer ${offer.id} is already released.` });
  if (!offer.name) errors.push({ ErrorCode: "MISSING_NAME", ErrorMessage: "Provide a Name for the offer." });
  if (!offer.buyerAccounts.length) {
    errors.push({
      ErrorCode: "INVALID_BUYER_ACCOUNTS",
      ErrorMessage: "Provide at least one buyer account for a private offer.",
    });
  }
  if (!offer.availabilityEndDate) {
    errors.push({
      ErrorCode: "MISSING_AVAILABILITY_END_DATE",
      ErrorMessage: "Provide an AvailabilityEndDate for private offer.",
    });
  } else if (endOfDay(offer.availabilityEndDate) < now) {
    errors.push({
      ErrorCode: "INVALID_AVAILABILITY_END_DATE",
      ErrorMessage: "AvailabilityEndDate must be in the future to release the offer.",
    });
  }
  const missing = [
    !offer.terms.some(isPricingTerm) && "PricingTerm",
    !offer.terms.some((t) => t.Type === "LegalTerm") && "LegalTerm",
  ].filter(Boolean);
  if (missing.length)
    errors.push({ ErrorCode: "MISSING_MANDATORY_TERMS", ErrorMessage: `Add [${missing.join(", ")}] to the offer.` });
  errors.push(...currencyErrors(offer.terms, seller.payoutCurrencies));
  return errors;
}
