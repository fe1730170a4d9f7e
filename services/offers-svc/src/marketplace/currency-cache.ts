import type { SellerCurrencies } from "@flowstate/contracts/rest/offers/currencies";
import { LruCache } from "@flowstate/shared/cache/lru";
import { PRINCIPALS, type Principal } from "@flowstate/shared/marketplace/principals";

export interface CurrencyCacheOptions {
  /** How long an answer is reused. */
  ttlMs: number;
  /** How long the legacy policy's answer is reused: shorter, so a stack update shows soon. */
  undeterminedTtlMs: number;
  /** Most entries (tenant × principal) held; the least recently used goes first. */
  max: number;
}

/**
 * Seller currencies per tenant and principal, kept briefly: every create and clone reads them
 * (two Catalog calls), and the answer changes only with the connector's policy. Per principal because the answer is
 * also a permission: a role that trusts only the backend principal must not have its currencies
 * served to an MCP caller (mcp-execution) from what a REST call read. Bounded (the platform's
 * LruCache) because every tenant that calls adds entries; built with the deps, never at module level.
 *
 * @example
 * const currencies = new CurrencyCache({ ttlMs: 30_000, undeterminedTtlMs: 5000, max: 10_000 });
 * currencies.set(tenantId, "backend", answer); // a SellerCurrencies
 */
export class CurrencyCache {
  readonly options: CurrencyCacheOptions;
  readonly #entries: LruCache<SellerCurrencies>;
  constructor(options: CurrencyCacheOptions) {
    this.options = options;
    this.#entries = new LruCache(options.max);
  }

  get size(): number {
    return this.#entries.size;
  }

  get(tenantId: string, principal: Principal, now = Date.now()): SellerCurrencies | undefined {
    return this.#entries.get(keyOf(tenantId, principal), now);
  }

  set(tenantId: string, principal: Principal, value: SellerCurrencies, now = Date.now()): void {
    const ttl = value.reason_code === "CONNECTOR_POLICY_OUTDATED" ? this.options.undeterminedTtlMs : this.options.ttlMs;
    this.#entries.set(keyOf(tenantId, principal), value, now + ttl);
  }

  /** Drops the tenant's currencies for every principal. */
  forget(tenantId: string): void {
    for (const principal of PRINCIPALS) this.#entries.delete(keyOf(tenantId, principal));
  }
}

// A space never occurs in a tenant id (contracts/src/ids.ts), so keys cannot collide.
const keyOf = (tenantId: string, principal: Principal) => `${tenantId} ${principal}`;
