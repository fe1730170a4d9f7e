import type { SellerState } from "./types.ts";

/**
 * Each seller account has its own clock, real time plus an offset that tests move forward
 * (credential expiry, offer expiry) without disturbing tests that play other accounts.
 */
export function nowOf(seller: Pick<SellerState, "clockOffsetMs">): number {
  return Date.now() + seller.clockOffsetMs;
}

/** Catalog timestamps: `YYYY-MM-DDThh:mm:ssZ`, exactly 20 characters (DateTimeISO8601). */
export function isoSeconds(ms: number): string {
  return `${new Date(ms).toISOString().slice(0, 19)}Z`;
}

/** `YYYY-MM-DD` of an instant, in UTC. */
export function isoDay(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

/** End of a `YYYY-MM-DD` day in UTC: an offer is available through its end date inclusive. */
export function endOfDay(day: string): number {
  return Date.parse(`${day}T23:59:59.999Z`);
}
