import type { Change } from "@aws-sdk/client-marketplace-catalog";
import type { Currency } from "@flowstate/contracts/rest/offers/common";
import type { CreateOfferRequest, ReplacementOfferRequest } from "@flowstate/contracts/rest/offers/offer-requests";
import { legalTerm, PRICING_MODEL, paymentScheduleTerm, pricingTerm, validityTerm } from "./terms.ts";

/** The ChangeName of a change set's CreateOffer, referenced by the changes after it. */
const CREATE = "CreateOffer";
const NEW_OFFER = `$${CREATE}.Entity.Identifier`;
const offer = (Identifier: string) => ({ Type: "Offer@1.0", Identifier });

/** Yesterday in UTC: the AvailabilityEndDate that expires an offer now (its end date is inclusive). */
export const yesterday = (now = Date.now()): string => new Date(now - 86_400_000).toISOString().slice(0, 10);

/** The details of an offer that Update* changes set, each optional (an update sends only some). */
export type OfferDetailFields = Partial<
  Pick<
    CreateOfferRequest,
    | "name"
    | "description"
    | "buyer_accounts"
    | "pricing"
    | "payment_schedule"
    | "legal_terms"
    | "validity"
    | "availability_end_date"
  >
> & {
  /** The currency of the schedule when `pricing` is not given (the offer's own). */
  currency?: Currency | undefined;
};

/**
 * One Update* change per detail given, on `entity`, in the order of AWS's reference change set
 * (UpdateInformation, UpdateTargeting, UpdatePricingTerms, UpdateValidityTerms,
 * UpdatePaymentScheduleTerms, UpdateLegalTerms, UpdateAvailability).
 */
function detailChanges(entity: string, r: OfferDetailFields): Change[] {
  // Terms are plain JSON objects; the SDK types documents as its own recursive DocumentType.
  const update = (ChangeType: string, details: object): Change => ({
    ChangeType,
    Entity: offer(entity),
    DetailsDocument: details as Change["DetailsDocument"],
  });
  const changes: Change[] = [];
  if (r.name !== undefined || r.description !== undefined)
    changes.push(update("UpdateInformation", { Name: r.name, Description: r.description }));
  if (r.buyer_accounts?.length)
    changes.push(update("UpdateTargeting", { PositiveTargeting: { BuyerAccounts: r.buyer_accounts } }));
  if (r.pricing)
    changes.push(
      update("UpdatePricingTerms", { PricingModel: PRICING_MODEL[r.pricing.model], Terms: [pricingTerm(r.pricing)] }),
    );
  if (r.validity) changes.push(update("UpdateValidityTerms", { Terms: [validityTerm(r.validity)] }));
  const currency = r.pricing?.currency ?? r.currency;
  if (r.payment_schedule?.length && currency)
    changes.push(update("UpdatePaymentScheduleTerms", { Terms: [paymentScheduleTerm(currency, r.payment_schedule)] }));
  if (r.legal_terms) changes.push(update("UpdateLegalTerms", { Terms: [legalTerm(r.legal_terms)] }));
  if (r.availability_end_date)
    changes.push(update("UpdateAvailability", { AvailabilityEndDate: r.availability_end_date }));
  return changes;
}

/**
 * A private offer as one change set, in the order of AWS's reference change set: CreateOffer,
 * then every Update* on `$CreateOffer.Entity.Identifier`, then ReleaseOffer when asked. Targeting
 * and the payment schedule are left out when not given (a draft may have neither).
 *
 * @example
 * createOfferChanges({ product_id: "prod-x", name: "Acme", ..., release: true }); // [CreateOffer, UpdateInformation, ..., ReleaseOffer]
 */
export function createOfferChanges(r: CreateOfferRequest): Change[] {
  return [
    {
      ChangeType: "CreateOffer",
      ChangeName: CREATE,
      Entity: { Type: "Offer@1.0" },
      DetailsDocument: { ProductId: r.product_id },
    },
    ...detailChanges(NEW_OFFER, r),
    ...(r.release ? [{ ChangeType: "ReleaseOffer", Entity: offer(NEW_OFFER), DetailsDocument: {} }] : []),
  ];
}

/** The ChangeName of a replacement offer's CreateReplacementOffer. */
const REPLACE = "CreateReplacementOffer";

/**
 * An agreement-based offer as one change set, in the order of AWS's replacement private offer
 * example: CreateReplacementOffer {AgreementId, Name}, then the Update* changes on
 * `$CreateReplacementOffer.Entity.Identifier`, then ReleaseOffer when asked. No UpdateTargeting:
 * the offer goes to the agreement's buyer, on the agreement's product.
 *
 * @example
 * replacementOfferChanges("agmt-abc", { name: "Renewal", ..., release: true }); // [CreateReplacementOffer, UpdateInformation, ..., ReleaseOffer]
 */
export function replacementOfferChanges(agreementId: string, r: ReplacementOfferRequest): Change[] {
  const entity = `$${REPLACE}.Entity.Identifier`;
  return [
    {
      ChangeType: "CreateReplacementOffer",
      ChangeName: REPLACE,
      Entity: { Type: "Offer@1.0" },
      DetailsDocument: { AgreementId: agreementId, Name: r.name },
    },
    ...detailChanges(entity, r),
    ...(r.release ? [{ ChangeType: "ReleaseOffer", Entity: offer(entity), DetailsDocument: {} }] : []),
  ];
}

/**
 * A draft's details changed: the Update* changes of the fields given, on the offer itself.
 *
 * @example
 * updateOfferChanges("offer-abc", { name: "Acme", description: "…" }); // [UpdateInformation]
 */
export const updateOfferChanges = (offerId: string, r: OfferDetailFields): Change[] => detailChanges(offerId, r);

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
