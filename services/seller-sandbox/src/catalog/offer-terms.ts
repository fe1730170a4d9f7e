import type { Offer, Term } from "../seller/types.ts";
import { PRICING_TERM_TYPES } from "./change-details.ts";

/** Currencies private offers accept ([DOC-PO]: USD, AUD, EUR, GBP, JPY). */
export const OFFER_CURRENCIES = new Set(["USD", "EUR", "GBP", "AUD", "JPY"]);

const PRICING = new Set<string>(PRICING_TERM_TYPES);
export const isPricingTerm = (t: Term) => PRICING.has(t.Type);

/** Every currency the offer's terms name. */
export function currenciesOf(terms: readonly Term[]): Set<string> {
  const out = new Set<string>();
  for (const t of terms) if (typeof t["CurrencyCode"] === "string") out.add(t["CurrencyCode"]);
  return out;
}

/**
 * Replaces the terms a change type owns (all pricing terms, or the one term of a type) and gives
 * new terms ids, as the service does.
 */
export function replaceTerms(offer: Offer, owned: (t: Term) => boolean, incoming: Term[]): void {
  let next = offer.terms.reduce((max, t) => Math.max(max, Number(/^term-(\d+)$/.exec(t.Id ?? "")?.[1] ?? 0)), 0);
  const kept = offer.terms.filter((t) => !owned(t));
  offer.terms = [...kept, ...incoming.map((t) => ({ ...t, Id: `term-${++next}` }))];
}

export type ChangeError = { ErrorCode: string; ErrorMessage: string };

/**
 * The currency rules of [DOC-PO]: one currency across the offer, one of the private-offer
 * currencies, and one the seller can be paid out in (the sandbox's reading of
 * INCOMPATIBLE_PAYMENT_SETTINGS, "Update your payment settings to be compatible with the CurrencyCode").
 */
export function currencyErrors(terms: readonly Term[], payoutCurrencies: readonly string[]): ChangeError[] {
  const currencies = currenciesOf(terms);
  const errors: ChangeError[] = [];
  for (const c of currencies) {
    if (!OFFER_CURRENCIES.has(c))
      errors.push({
        ErrorCode: "INVALID_CURRENCY_CODE",
        ErrorMessage: `CurrencyCode ${c} is not supported for private offers.`,
      });
  }
  if (currencies.size > 1) {
    errors.push({
      ErrorCode: "INVALID_CURRENCY_CODE",
      ErrorMessage: `All terms of an offer must use one currency, found ${[...currencies].join(", ")}.`,
    });
  }
  for (const c of currencies) {
    if (OFFER_CURRENCIES.has(c) && !payoutCurrencies.includes(c)) {
      errors.push({
        ErrorCode: "INCOMPATIBLE_PAYMENT_SETTINGS",
        ErrorMessage: `Update your payment settings to be compatible with the CurrencyCode ${c}.`,
      });
    }
  }
  return errors;
}
