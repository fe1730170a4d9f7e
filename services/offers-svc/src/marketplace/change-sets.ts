import type { Change } from "@aws-sdk/client-marketplace-catalog";
import type { CreateOfferRequest } from "@flowstate/contracts/rest/offers/offer-requests";
import { legalTerm, PRICING_MODEL, paymentScheduleTerm, pricingTerm, validityTerm } from "./terms.ts";

/** The ChangeName of a change set's CreateOffer, referenced by the changes after it. */
const CREATE = "CreateOffer";
const NEW_OFFER = `$${CREATE}.Entity.Identifier`;
const offer = (Identifier: string) => ({ Type: "Offer@1.0", Identifier });

/** Yesterday in UTC: the AvailabilityEndDate that expires an offer now (its end date is inclusive). */
export const yesterday = (now = Date.now()): string => new Date(now - 86_400_000).toISOString().slice(0, 10);

/**
 * A private offer as one change set, in the order of AWS's reference change set: CreateOffer,
 * then every Update* on `$CreateOffer.Entity.Identifier`, then ReleaseOffer when asked. Targeting
 * and the payment schedule are left out when not given (a draft may have neither).
 *
 * @example
 * createOfferChanges({ product_id: "prod-x", name: "Acme", ..., release: true }); // [CreateOffer, UpdateInformation, ..., ReleaseOffer]
 */
export function createOfferChanges(r: CreateOfferRequest): Change[] {
  // Terms are plain JSON objects; the SDK types documents as its own recursive DocumentType.
  const update = (ChangeType: string, details: object): Change => ({
    ChangeType,
    Entity: offer(NEW_OFFER),
    DetailsDocument: details as Change["DetailsDocument"],
  });
  const changes: Change[] = [
    {
      ChangeType: "CreateOffer",
      ChangeName: CREATE,
      Entity: { Type: "Offer@1.0" },
      DetailsDocument: { ProductId: r.product_id },
    },
    update("UpdateInformation", { Name: r.name, Description: r.description }),
  ];
  if (r.buyer_accounts?.length)
    changes.push(update("UpdateTargeting", { PositiveTargeting: { BuyerAccounts: r.buyer_accounts } }));
  changes.push(
    update("UpdatePricingTerms", { PricingModel: PRICING_MODEL[r.pricing.model], Terms: [pricingTerm(r.pricing)] }),
    update("UpdateValidityTerms", { Terms: [validityTerm(r.validity)] }),
  );
  if (r.payment_schedule?.length)
    changes.push(
      update("UpdatePaymentScheduleTerms", { Terms: [paymentScheduleTerm(r.pricing.currency, r.payment_schedule)] }),
    );
  changes.push(
    update("UpdateLegalTerms", { Terms: [legalTerm(r.legal_terms)] }),
    update("UpdateAvailability", { AvailabilityEndDate: r.availability_end_date }),
  );
  if (r.release) changes.push(update("ReleaseOffer", {}));
  return changes;
}

/** ReleaseOffer takes an empty DetailsDocument (AWS: "DetailsDocument must be {}"). */
export const releaseOfferChanges = (offerId: string): Change[] => [
  { ChangeType: "ReleaseOffer", Entity: offer(offerId), DetailsDocument: {} },
];

/** There is no ExpireOffer in AWS: an AvailabilityEndDate in the past expires a released offer. */
export const expireOfferChanges = (offerId: string, now = Date.now()): Change[] => [
  {
    ChangeType: "UpdateAvailability",
    Entity: offer(offerId),
    DetailsDocument: { AvailabilityEndDate: yesterday(now) },
  },
];
