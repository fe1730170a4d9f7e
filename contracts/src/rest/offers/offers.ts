import { z } from "zod";
import { FreeText } from "../../text.ts";
import { AwsAccountId, Cursor, Day, OfferId, PageLimit, ProductId, Timestamp } from "./common.ts";
import { CurrencyNotChecked } from "./currencies.ts";
import { LegalTerms, PaymentCharge, Pricing, Validity } from "./terms.ts";

/** `expired`: released, and its availability end date has passed (AWS keeps such offers `Released`). */
export const OfferState = z.enum(["draft", "released", "expired"]);
export type OfferState = z.infer<typeof OfferState>;
export const OfferVisibility = z.enum(["private", "public"]);

export const OfferSummary = z.object({
  offer_id: OfferId,
  name: z.string().optional(),
  product_id: z.string(),
  state: OfferState,
  visibility: OfferVisibility,
  buyer_accounts: z.array(z.string()),
  availability_end_date: Day.optional(),
  release_date: Timestamp.optional(),
  last_modified_at: Timestamp,
});
export type OfferSummary = z.infer<typeof OfferSummary>;

export const OfferList = z.object({ offers: z.array(OfferSummary), next_cursor: Cursor.optional() });
export type OfferList = z.infer<typeof OfferList>;

export const ListOffersQuery = z.strictObject({
  state: OfferState.optional(),
  product_id: ProductId.optional(),
  visibility: OfferVisibility.optional(),
  limit: PageLimit,
  cursor: Cursor.optional(),
});
export type ListOffersQuery = z.infer<typeof ListOffersQuery>;

/**
 * An offer as its seller reads it. A term Flowstate does not type (a support or renewal term, a
 * configurable upfront price, ...) is named in `other_terms` and kept by AWS, but a clone refuses
 * an offer that has one rather than silently dropping it.
 */
export const Offer = OfferSummary.extend({
  description: z.string().optional(),
  pricing: Pricing.optional(),
  payment_schedule: z.array(PaymentCharge).optional(),
  legal_terms: LegalTerms.optional(),
  validity: Validity.optional(),
  other_terms: z.array(z.string()),
});
export type Offer = z.infer<typeof Offer>;

/** 202 answer of every mutation: the change set AWS is applying, and where to follow it. */
export const ChangeSetStatus = z.enum(["preparing", "applying", "succeeded", "failed", "cancelled"]);
export type ChangeSetStatus = z.infer<typeof ChangeSetStatus>;
export const ChangeHandle = z.object({
  change_set_id: z.string(),
  status: ChangeSetStatus,
  location: z.string(),
  /**
   * create, clone: present when the seller's currencies could not be determined, so the offer's
   * currency was not checked: the change set was submitted anyway and AWS decides (a currency the
   * seller cannot be paid out in fails the change set with INCOMPATIBLE_PAYMENT_SETTINGS).
   */
  currency_not_checked: CurrencyNotChecked.optional(),
});
export type ChangeHandle = z.infer<typeof ChangeHandle>;

export const offerRequestFields = {
  // Shown to the buyer and in the seller's lists: free text (contracts/src/text.ts).
  name: FreeText(150),
  description: FreeText(255, { lines: true }),
  buyer_accounts: z.array(AwsAccountId).min(1).max(26),
  pricing: Pricing,
  payment_schedule: z.array(PaymentCharge).min(1).max(36),
  legal_terms: LegalTerms,
  validity: Validity,
  availability_end_date: Day,
};
