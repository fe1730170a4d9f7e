import { z } from "zod";
import { Currency } from "./common.ts";

/**
 * Why the seller's payout currencies are undetermined:
 * - `CONNECTOR_POLICY_OUTDATED`: the role's policy predates 2026-08-31 and cannot read the Seller
 *   entity at all (the health endpoint names the update for the seller's onboarding path);
 * - `NOT_DOCUMENTED_BY_AWS`: the Seller entity is readable, but DescribeEntity documents no field
 *   with the disbursement preferences (its DetailsDocument has no published shape, and no other
 *   Catalog or Agreement API reads them), so nothing it answers is relied on.
 */
export const CurrenciesUndeterminedReason = z.enum(["CONNECTOR_POLICY_OUTDATED", "NOT_DOCUMENTED_BY_AWS"]);
export type CurrenciesUndeterminedReason = z.infer<typeof CurrenciesUndeterminedReason>;

/** The sentence of `NOT_DOCUMENTED_BY_AWS`, shared by the currencies answer and the health check. */
export const NOT_DOCUMENTED_BY_AWS_REASON =
  "AWS Marketplace documents no API field with the seller's disbursement currencies (DescribeEntity on the Seller " +
  "entity publishes no such shape), so they cannot be checked before submitting: AWS checks an offer's currency " +
  "when it applies the change set (INCOMPATIBLE_PAYMENT_SETTINGS). Private offers accept USD, EUR, GBP, AUD and JPY " +
  "where the seller's payment settings allow them.";

/** Why the seller's currencies could not be determined, and the health endpoint. */
export const CurrencyNotChecked = z.object({
  reason_code: CurrenciesUndeterminedReason,
  reason: z.string(),
  /** The connector health endpoint, which names the fix for the seller's onboarding path when there is one. */
  health: z.string(),
});
export type CurrencyNotChecked = z.infer<typeof CurrencyNotChecked>;

/**
 * GET .../seller/currencies: the currencies the seller can be paid out in, which are the currencies
 * its offers may use. AWS documents no way to read them (NOT_DOCUMENTED_BY_AWS), and a role
 * deployed before 2026-08-31 cannot even read the Seller entity (CONNECTOR_POLICY_OUTDATED): the
 * answer is 200, `determined: false`, with the reason and the health endpoint. Creating or cloning
 * an offer is then accepted unchecked (AWS decides the currency when it applies the change set) and
 * the 202 answer carries the same reason (`currency_not_checked`).
 */
export const SellerCurrencies = z.object({
  determined: z.literal(false),
  currencies: z.array(Currency).max(0),
  ...CurrencyNotChecked.shape,
});
export type SellerCurrencies = z.infer<typeof SellerCurrencies>;
