import { z } from "zod";

/** `YYYY-MM-DD` that is a real calendar day (2026-02-30 is refused). */
export const Day = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, "must be a date in the format YYYY-MM-DD")
  .refine(
    (d) => !Number.isNaN(Date.parse(`${d}T00:00:00Z`)) && new Date(`${d}T00:00:00Z`).toISOString().startsWith(d),
    "must be a valid calendar date",
  );

const Currency = z.string().regex(/^[A-Z]{3}$/, "must be a 3-letter currency code");
const BuyerAccount = z.string().regex(/^\d{12}$/, "must be a 12-digit AWS account id");
const Amount = z.string().regex(/^\d+(\.\d{1,2})?$/, "must be a decimal amount such as 200.00");

export const PRICING_TERM_TYPES = [
  "FixedUpfrontPricingTerm",
  "ConfigurableUpfrontPricingTerm",
  "UsageBasedPricingTerm",
  "RecurringPaymentTerm",
  "FreeTrialPricingTerm",
  "ByolPricingTerm",
] as const;

const PricingTerm = z.looseObject({ Type: z.enum(PRICING_TERM_TYPES), CurrencyCode: Currency.optional() });
const LegalDocument = z.looseObject({
  Type: z.enum(["CustomEula", "StandardEula", "CustomDsa", "StandardDsa", "EnterpriseEula"]),
  Url: z.url().optional(),
  Version: z.string().optional(),
});

/**
 * DetailsDocument of each Offer@1.0 change type the sandbox applies, after AWS's documented shapes
 * ("Work with private offers", the Python shapes library). Anything else is a validation error.
 */
export const OFFER_CHANGE_DETAILS = {
  CreateOffer: z.strictObject({
    ProductId: z.string().min(1).max(50),
    Name: z.string().max(150).optional(),
    OfferSetId: z.string().optional(),
  }),
  // An agreement-based offer ([DOC-PO]: `CreateReplacementOffer` {AgreementId*, Name}): a new offer
  // on the agreement's product, to its buyer, whose acceptance replaces the agreement.
  CreateReplacementOffer: z.strictObject({
    AgreementId: z.string().min(1).max(64),
    Name: z.string().max(150).optional(),
  }),
  UpdateInformation: z.strictObject({
    Name: z.string().min(1).max(150).optional(),
    Description: z.string().max(255).optional(),
    PreExistingAgreement: z
      .strictObject({
        AcquisitionChannel: z.enum(["External", "AwsMarketplace"]),
        PricingModel: z.enum(["Contract", "Usage", "Byol", "Free"]),
      })
      .optional(),
  }),
  UpdateTargeting: z.strictObject({
    PositiveTargeting: z.strictObject({
      BuyerAccounts: z.array(BuyerAccount).min(1).max(26).optional(),
      CountryCodes: z
        .array(z.string().regex(/^[A-Z]{2}$/))
        .min(1)
        .optional(),
    }),
    NegativeTargeting: z.strictObject({ CountryCodes: z.array(z.string().regex(/^[A-Z]{2}$/)) }).optional(),
  }),
  UpdatePricingTerms: z.strictObject({
    PricingModel: z.enum(["Usage", "Contract", "Free", "Byol"]),
    Terms: z.array(PricingTerm).min(1),
  }),
  UpdateLegalTerms: z.strictObject({
    Terms: z
      .array(z.strictObject({ Type: z.literal("LegalTerm"), Documents: z.array(LegalDocument).min(1) }))
      .length(1),
  }),
  UpdateValidityTerms: z.strictObject({
    Terms: z
      .array(
        z
          .strictObject({
            Type: z.literal("ValidityTerm"),
            AgreementDuration: z
              .string()
              .regex(/^P\d+[DMY]$/, "must be an ISO 8601 duration such as P12M")
              .optional(),
            AgreementStartDate: Day.optional(),
            AgreementEndDate: Day.optional(),
          })
          .refine((t) => t.AgreementDuration || t.AgreementEndDate, "needs AgreementDuration or AgreementEndDate")
          .refine(
            (t) => !t.AgreementStartDate || !t.AgreementEndDate || t.AgreementStartDate < t.AgreementEndDate,
            "AgreementStartDate must be before AgreementEndDate",
          ),
      )
      .length(1),
  }),
  UpdatePaymentScheduleTerms: z.strictObject({
    Terms: z
      .array(
        z.strictObject({
          Type: z.literal("PaymentScheduleTerm"),
          CurrencyCode: Currency,
          Schedule: z
            .array(z.strictObject({ ChargeDate: Day, ChargeAmount: Amount }))
            .min(1)
            .max(36),
        }),
      )
      .length(1),
  }),
  UpdateAvailability: z.strictObject({ AvailabilityEndDate: Day }),
  // "DetailsDocument must be {}" for ReleaseOffer.
  ReleaseOffer: z.strictObject({}),
} as const;

export type OfferChangeType = keyof typeof OFFER_CHANGE_DETAILS;
export type OfferChangeDetails<T extends OfferChangeType> = z.output<(typeof OFFER_CHANGE_DETAILS)[T]>;

export function isOfferChangeType(t: string): t is OfferChangeType {
  return Object.hasOwn(OFFER_CHANGE_DETAILS, t);
}
