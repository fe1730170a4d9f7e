import assert from "node:assert/strict";
import { describe, it } from "vitest";
import { TokenBuckets } from "./token-bucket.ts";

describe("TokenBuckets", () => {
  it("allows a burst, then refuses with the seconds until the next token", () => {
    const buckets = new TokenBuckets({ ratePerSec: 0.5, burst: 3 }, 10);
    for (let i = 0; i < 3; i++) assert.deepEqual(buckets.take("a", 0), { ok: true });
    assert.deepEqual(buckets.take("a", 0), { ok: false, retryAfterSec: 2 });
  });

  it("refills at the configured rate, never beyond the burst", () => {
    const buckets = new TokenBuckets({ ratePerSec: 10, burst: 2 }, 10);
    buckets.take("a", 0);
    buckets.take("a", 0);
    assert.equal(buckets.take("a", 50).ok, false);
    assert.equal(buckets.take("a", 100).ok, true);
    assert.equal(buckets.take("a", 100_000).ok, true);
    assert.equal(buckets.take("a", 100_000).ok, true);
    assert.equal(buckets.take("a", 100_000).ok, false, "a long pause gives a burst, not more");
  });

  it("keeps keys apart", () => {
    const buckets = new TokenBuckets({ ratePerSec: 1, burst: 1 }, 10);
    assert.equal(buckets.take("a", 0).ok, true);
    assert.equal(buckets.take("a", 0).ok, false);
    assert.equal(buckets.take("b", 0).ok, true);
  });

  it("stays within its key bound", () => {
    const buckets = new TokenBuckets({ ratePerSec: 1, burst: 1 }, 50);
    for (let i = 0; i < 1_000; i++) buckets.take(`k${i}`, 0);
    assert.equal(buckets.size, 50);
  });
});
