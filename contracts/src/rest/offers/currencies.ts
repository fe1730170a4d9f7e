import { z } from "zod";
import { Currency } from "./common.ts";

/**
 * Why the seller's currencies could not be determined, and where the fix is named: the role's
 * policy predates 2026-08-31 (no `Seller` resource in it; the health endpoint names the update for
 * the seller's onboarding path).
 */
export const CurrencyNotChecked = z.object({
  reason_code: z.enum(["CONNECTOR_POLICY_OUTDATED"]),
  reason: z.string(),
  /** The connector health endpoint, which names the fix for the seller's onboarding path. */
  health: z.string(),
});
export type CurrencyNotChecked = z.infer<typeof CurrencyNotChecked>;

/**
 * GET .../seller/currencies: the currencies the seller can be paid out in (the Seller entity's
 * disbursement preferences), which are the currencies its offers may use. With a connector role
 * deployed before 2026-08-31 (no `Seller` resource in its policy) they cannot be read: the answer
 * is still 200, `determined: false`, with the reason and the health endpoint that names the fix;
 * creating or cloning an offer is then accepted unchecked (AWS decides the currency when it applies
 * the change set) and the 202 answer carries the same reason (`currency_not_checked`).
 */
export const SellerCurrencies = z.discriminatedUnion("determined", [
  z.object({ determined: z.literal(true), currencies: z.array(Currency) }),
  z.object({
    determined: z.literal(false),
    currencies: z.array(Currency).max(0),
    ...CurrencyNotChecked.shape,
  }),
]);
export type SellerCurrencies = z.infer<typeof SellerCurrencies>;
