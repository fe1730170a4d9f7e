import { z } from "zod";
import { ProductId, today } from "./common.ts";
import { offerRequestFields as f } from "./offers.ts";

type Issue = { path: (string | number)[]; message: string; code?: string };

/**
 * The rules a create (or a clone, once merged with its original) must meet before anything is
 * sent to AWS, each reported against its field. Dates are compared with today in UTC. zod runs
 * this also when a field failed a format check (only a wrong type stops it), so every value is
 * read defensively and all errors come back at once.
 */
export function offerRuleIssues(o: Omit<z.infer<typeof CreateOfferFields>, "product_id">): Issue[] {
  const issues: Issue[] = [];
  const now = today();
  if (o.release && !o.buyer_accounts?.length)
    issues.push({ path: ["buyer_accounts"], message: "a private offer needs buyer accounts to be released" });
  if (o.buyer_accounts && new Set(o.buyer_accounts).size !== o.buyer_accounts.length)
    issues.push({ path: ["buyer_accounts"], message: "buyer accounts must not repeat" });
  if (o.availability_end_date < now)
    issues.push({ path: ["availability_end_date"], message: `must be today (${now}) or later` });
  if (o.payment_schedule && o.pricing?.model !== "contract")
    issues.push({ path: ["payment_schedule"], message: "a payment schedule needs contract pricing" });
  o.payment_schedule?.forEach((c, i, all) => {
    if (c.charge_date < now)
      issues.push({ path: ["payment_schedule", i, "charge_date"], message: `must be today (${now}) or later` });
    if (i > 0 && c.charge_date <= (all[i - 1]?.charge_date ?? ""))
      issues.push({ path: ["payment_schedule", i, "charge_date"], message: "charge dates must be in ascending order" });
  });
  if (o.validity && "end_date" in o.validity) {
    if (o.validity.end_date < now)
      issues.push({ path: ["validity", "end_date"], message: `must be today (${now}) or later` });
    if (o.validity.start_date && o.validity.start_date >= o.validity.end_date)
      issues.push({ path: ["validity", "start_date"], message: "must be before end_date" });
  }
  return issues;
}

const CreateOfferFields = z.strictObject({
  product_id: ProductId,
  ...f,
  buyer_accounts: f.buyer_accounts.optional(),
  payment_schedule: f.payment_schedule.optional(),
  /** Also release the offer, in the same change set (ReleaseOffer). */
  release: z.boolean().default(false),
});

/** POST .../offers: a private offer in one change set, released too when `release` is true. */
export const CreateOfferRequest = CreateOfferFields.superRefine((o, ctx) => {
  for (const issue of offerRuleIssues(o)) ctx.addIssue({ code: "custom", path: issue.path, message: issue.message });
});
export type CreateOfferRequest = z.infer<typeof CreateOfferRequest>;

/**
 * POST .../agreements/{agreement_id}/replacement-offers: an agreement-based offer (AWS's
 * CreateReplacementOffer) that replaces the agreement's terms when its buyer accepts it. Product and
 * buyer are the agreement's (no `product_id`, no `buyer_accounts`); everything else as a create,
 * released in the same change set when `release` is true.
 */
export const ReplacementOfferRequest = CreateOfferFields.omit({ product_id: true, buyer_accounts: true }).superRefine(
  (o, ctx) => {
    // The buyer is the agreement's, so the create rule "a released offer needs buyers" does not apply.
    for (const issue of offerRuleIssues({ ...o, release: false }))
      ctx.addIssue({ code: "custom", path: issue.path, message: issue.message });
  },
);
export type ReplacementOfferRequest = z.infer<typeof ReplacementOfferRequest>;

/**
 * POST .../offers/{offer_id}/clone: the original's terms replayed into a new draft, each field
 * given here replacing the original's (`payment_schedule: null` drops the schedule). The merged
 * offer must pass the create rules (a copied charge date in the past is reported against
 * `payment_schedule`). `expire_original` expires the original in the same change set.
 */
export const CloneOfferRequest = z.strictObject({
  name: f.name.optional(),
  description: f.description.optional(),
  buyer_accounts: f.buyer_accounts.optional(),
  pricing: f.pricing.optional(),
  payment_schedule: f.payment_schedule.nullable().optional(),
  legal_terms: f.legal_terms.optional(),
  validity: f.validity.optional(),
  availability_end_date: f.availability_end_date.optional(),
  expire_original: z.boolean().default(false),
  release: z.boolean().default(false),
});
export type CloneOfferRequest = z.infer<typeof CloneOfferRequest>;

/**
 * PATCH .../offers/{offer_id}: a draft's details changed in one change set (an Update* change per
 * field given: UpdateInformation, UpdateTargeting, UpdatePricingTerms, UpdatePaymentScheduleTerms,
 * UpdateLegalTerms, UpdateValidityTerms, UpdateAvailability). At least one field. The create rules
 * apply to the fields given, read with the draft's other fields (a schedule needs contract
 * pricing, dates today or later); a new pricing re-sends the draft's schedule in its currency.
 */
export const UpdateOfferRequest = z
  .strictObject({
    name: f.name.optional(),
    description: f.description.optional(),
    buyer_accounts: f.buyer_accounts.optional(),
    pricing: f.pricing.optional(),
    payment_schedule: f.payment_schedule.optional(),
    legal_terms: f.legal_terms.optional(),
    validity: f.validity.optional(),
    availability_end_date: f.availability_end_date.optional(),
  })
  .refine((o) => Object.values(o).some((v) => v !== undefined), { message: "give at least one field to change" });
export type UpdateOfferRequest = z.infer<typeof UpdateOfferRequest>;
