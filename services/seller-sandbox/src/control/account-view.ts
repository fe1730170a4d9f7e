import { isoDay, nowOf } from "../seller/clock.ts";
import type { SellerState } from "../seller/types.ts";

/**
 * What a test may want to know about a seller without going through IAM: the ids the seed made,
 * offer states, the clock. Read-only; the SDK paths remain the way to change the catalog.
 */
export function accountView(seller: SellerState) {
  const now = nowOf(seller);
  return {
    account: seller.account,
    sellerId: seller.sellerId,
    payoutCurrencies: seller.payoutCurrencies,
    now: new Date(now).toISOString(),
    clockOffsetSeconds: Math.round(seller.clockOffsetMs / 1000),
    changeSetStepMs: seller.changeSetStepMs,
    faults: seller.faults,
    products: [...seller.products.values()].map((p) => ({ id: p.id, title: p.title, visibility: p.visibility })),
    offers: [...seller.offers.values()].map((o) => ({
      id: o.id,
      name: o.name,
      productId: o.productId,
      state: o.state,
      availabilityEndDate: o.availabilityEndDate,
      expired: o.state === "Released" && !!o.availabilityEndDate && o.availabilityEndDate < isoDay(now),
      private: o.buyerAccounts.length > 0,
    })),
    agreements: seller.agreements.map((a) => ({ id: a.id, offerId: a.offerId, status: a.status })),
    changeSets: [...seller.changeSets.values()].map((c) => ({ id: c.id, status: c.status })),
    calls: Object.fromEntries(seller.calls),
  };
}
