import { z } from "zod";
import { Amount, Currency, Day, Duration } from "./common.ts";

/**
 * An offer's terms as Flowstate's API types them. Each maps to AWS terms one to one
 * (offers-svc/src/marketplace/terms.ts): contract pricing → FixedUpfrontPricingTerm (with its
 * Grants), usage pricing → UsageBasedPricingTerm, the schedule → PaymentScheduleTerm, the EULA →
 * LegalTerm, validity → ValidityTerm. One currency for the whole offer, as AWS requires.
 */
export const ContractPricing = z.strictObject({
  model: z.literal("contract"),
  currency: Currency,
  /** The upfront price; "0.00" when the payment schedule carries the charges. */
  price: Amount,
  /** How long the entitlement lasts (FixedUpfrontPricingTerm.Duration); the validity term when omitted. */
  duration: Duration.optional(),
  dimensions: z
    .array(
      z.strictObject({ key: z.string().min(1).max(100), quantity: z.number().int().min(1).max(1_000_000).default(1) }),
    )
    .min(1)
    .max(24),
});

export const UsagePricing = z.strictObject({
  model: z.literal("usage"),
  currency: Currency,
  rates: z
    .array(z.strictObject({ dimension_key: z.string().min(1).max(100), price: Amount }))
    .min(1)
    .max(24),
});

export const Pricing = z.discriminatedUnion("model", [ContractPricing, UsagePricing]);
export type Pricing = z.infer<typeof Pricing>;

export const PaymentCharge = z.strictObject({ charge_date: Day, amount: Amount });
export type PaymentCharge = z.infer<typeof PaymentCharge>;

export const Eula = z.discriminatedUnion("type", [
  z.strictObject({ type: z.literal("standard"), version: z.string().min(1).max(64).optional() }),
  z.strictObject({ type: z.literal("custom"), url: z.url({ protocol: /^https$/, error: "expected an https URL" }) }),
]);
export const LegalTerms = z.strictObject({ eula: Eula });
export type LegalTerms = z.infer<typeof LegalTerms>;

/** A fixed duration from acceptance, or explicit dates (AgreementStartDate optional, AgreementEndDate required). */
export const Validity = z.union([
  z.strictObject({ duration: Duration }),
  z.strictObject({ start_date: Day.optional(), end_date: Day }),
]);
export type Validity = z.infer<typeof Validity>;
