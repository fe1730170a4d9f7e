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

  it("evicts in least-recently-used order across many evictions, hits and deletes between them", () => {
    // The cache against a plain model (an array, oldest first), through enough operations that
    // every entry is moved, evicted and deleted from each place in the recency list many times.
    const cache = new LruCache<number>(50);
    let model: string[] = [];
    let seed = 7;
    const random = (n: number) => {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
      return seed % n;
    };
    for (let i = 0; i < 20_000; i++) {
      const key = `k${random(120)}`;
      const op = random(10);
      if (op < 5) {
        cache.set(key, i);
        model = [...model.filter((k) => k !== key), key];
        if (model.length > 50) model.shift();
      } else if (op < 9) {
        const hit = cache.get(key) !== undefined;
        assert.equal(hit, model.includes(key), `operation ${i}: get ${key}`);
        if (hit) model = [...model.filter((k) => k !== key), key];
      } else {
        cache.delete(key);
        model = model.filter((k) => k !== key);
      }
      if (i === 10_000) {
        cache.clear();
        model = [];
      }
    }
    assert.equal(cache.size, model.length);
    for (const key of model) assert.notEqual(cache.get(key), undefined, `${key} is still cached`);
  });

  it("refuses a bound that is not a positive integer", () => {
    assert.throws(() => new LruCache(0), RangeError);
  });
});
