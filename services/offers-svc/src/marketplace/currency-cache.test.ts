import assert from "node:assert/strict";
import type { SellerCurrencies } from "@flowstate/contracts/rest/offers/currencies";
import { describe, it } from "vitest";
import { CurrencyCache } from "./currency-cache.ts";

const usd: SellerCurrencies = {
  determined: false,
  currencies: [],
  reason_code: "NOT_DOCUMENTED_BY_AWS",
  reason: "not documented",
  health: "/v1/tenants/tnt_x/integrations/marketplace/health",
};
const undetermined: SellerCurrencies = {
  determined: false,
  currencies: [],
  reason_code: "CONNECTOR_POLICY_OUTDATED",
  reason: "outdated",
  health: "/v1/tenants/tnt_x/integrations/marketplace/health",
};

describe("the seller currencies cache", () => {
  it("is bounded: past `max` entries the least recently used tenant is dropped", () => {
    const cache = new CurrencyCache({ ttlMs: 30_000, undeterminedTtlMs: 1000, max: 2 });
    cache.set("tnt_a", "backend", usd, 0);
    cache.set("tnt_b", "backend", usd, 0);
    assert.ok(cache.get("tnt_a", "backend", 1));
    cache.set("tnt_c", "backend", usd, 0);
    assert.equal(cache.get("tnt_b", "backend", 1), undefined);
    assert.ok(cache.get("tnt_a", "backend", 1));
    assert.ok(cache.get("tnt_c", "backend", 1));
    for (let i = 0; i < 1000; i++) cache.set(`tnt_${i}`, "mcp-execution", usd, 0);
    assert.equal(cache.size, 2);
  });

  it("keeps an answer for ttlMs, the legacy policy's for undeterminedTtlMs", () => {
    const cache = new CurrencyCache({ ttlMs: 30_000, undeterminedTtlMs: 1000, max: 10 });
    cache.set("tnt_a", "backend", usd, 0);
    cache.set("tnt_b", "backend", undetermined, 0);
    assert.deepEqual(cache.get("tnt_a", "backend", 29_999), usd);
    assert.deepEqual(cache.get("tnt_b", "backend", 999), undetermined);
    assert.equal(cache.get("tnt_b", "backend", 1000), undefined);
    assert.equal(cache.get("tnt_a", "backend", 30_000), undefined);
  });

  it("keeps each principal's answer apart, and forgets a tenant for every principal", () => {
    const cache = new CurrencyCache({ ttlMs: 30_000, undeterminedTtlMs: 1000, max: 10 });
    cache.set("tnt_a", "backend", usd, 0);
    assert.equal(cache.get("tnt_a", "mcp-execution", 1), undefined);
    cache.set("tnt_a", "mcp-execution", undetermined, 0);
    cache.set("tnt_b", "backend", usd, 0);
    cache.forget("tnt_a");
    assert.equal(cache.get("tnt_a", "backend", 1), undefined);
    assert.equal(cache.get("tnt_a", "mcp-execution", 1), undefined);
    assert.deepEqual(cache.get("tnt_b", "backend", 1), usd);
  });
});
