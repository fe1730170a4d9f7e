import assert from "node:assert/strict";
import { describe, it } from "vitest";
import { LruCache } from "./lru.ts";

describe("LruCache", () => {
  it("returns a value until its expiry and nothing after", () => {
    const cache = new LruCache<string>(10);
    cache.set("a", "1", 1_000);
    assert.equal(cache.get("a", 999), "1");
    assert.equal(cache.get("a", 1_000), undefined);
    assert.equal(cache.size, 0, "an expired entry is dropped when it is read");
  });

  it("evicts the least recently used entry when it is full", () => {
    const cache = new LruCache<number>(2);
    cache.set("a", 1, Number.MAX_SAFE_INTEGER);
    cache.set("b", 2, Number.MAX_SAFE_INTEGER);
    cache.get("a");
    cache.set("c", 3, Number.MAX_SAFE_INTEGER);
    assert.equal(cache.get("b"), undefined);
    assert.equal(cache.get("a"), 1);
    assert.equal(cache.get("c"), 3);
  });

  it("never grows beyond its bound", () => {
    const cache = new LruCache<number>(100);
    for (let i = 0; i < 10_000; i++) cache.set(`k${i}`, i, Number.MAX_SAFE_INTEGER);
    assert.equal(cache.size, 100);
  });

  it("refuses a bound that is not a positive integer", () => {
    assert.throws(() => new LruCache(0), RangeError);
  });
});
