import { seedSeller } from "../seed/seller-seed.ts";
import type { SellerState } from "./types.ts";

/**
 * All seller accounts the sandbox plays, each created from the seed the first time anything
 * touches it, so parallel tests that use different account ids never see each other's changes.
 */
export class SellerStore {
  readonly #sellers = new Map<string, SellerState>();
  readonly #defaultStepMs: number;

  constructor(options: { changeSetStepMs: number }) {
    this.#defaultStepMs = options.changeSetStepMs;
  }

  get(account: string): SellerState {
    let seller = this.#sellers.get(account);
    if (!seller) {
      seller = {
        ...seedSeller(account, Date.now()),
        clockOffsetMs: 0,
        changeSetStepMs: this.#defaultStepMs,
        faults: [],
      };
      this.#sellers.set(account, seller);
    }
    return seller;
  }

  has(account: string): boolean {
    return this.#sellers.has(account);
  }

  /** Back to the seed: catalog, agreements, change sets, faults, clock and timing all reset. */
  reset(account: string): SellerState {
    this.#stopTimers(this.#sellers.get(account));
    this.#sellers.delete(account);
    return this.get(account);
  }

  /** Stops every pending change-set timer (process shutdown, end of a test). */
  close(): void {
    for (const seller of this.#sellers.values()) this.#stopTimers(seller);
  }

  #stopTimers(seller: SellerState | undefined): void {
    if (!seller) return;
    for (const t of seller.timers) clearTimeout(t);
    seller.timers.clear();
  }
}
