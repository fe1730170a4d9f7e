import type { SellerState } from "../seller/types.ts";
import { seedAgreements } from "./agreements-seed.ts";
import { seedOffers, seedProducts } from "./catalog-seed.ts";
import { ID_LENGTH, seededId } from "./ids.ts";

/** Currencies a fresh seller can be paid out in: USD and EUR, so GBP/AUD/JPY offers fail. */
export const DEFAULT_PAYOUT_CURRENCIES = ["USD", "EUR"];

/**
 * A fresh seller for an account: the same ids and contents for the same account id every time
 * (timestamps are relative to the account's clock). Keeps clock offset and step settings out:
 * the store decides whether a reset keeps them.
 */
export function seedSeller(
  account: string,
  now: number,
): Omit<SellerState, "clockOffsetMs" | "changeSetStepMs" | "faults"> {
  const products = seedProducts(account, now);
  const offers = seedOffers(account, products, now);
  return {
    account,
    sellerId: seededId(account, "seller", "seller", ID_LENGTH.seller),
    sellerName: `Sandbox Seller ${account}`,
    payoutCurrencies: [...DEFAULT_PAYOUT_CURRENCIES],
    sellerLastModified: now,
    products: new Map(products.map((p) => [p.id, p])),
    offers: new Map(offers.map((o) => [o.id, o])),
    agreements: seedAgreements(account, offers, now),
    changeSets: new Map(),
    locks: new Map(),
    calls: new Map(),
    timers: new Set(),
  };
}
