import assert from "node:assert/strict";
import { describe, it } from "vitest";
import { CachedLookup } from "./cached-lookup.ts";
import { InvalidationLog } from "./invalidation-log.ts";

/** A source of truth the test can change, counting how often it is asked. */
function source(initial: Record<string, string | null>) {
  const state = { ...initial };
  const calls: string[] = [];
  let gate: Promise<void> | undefined;
  return {
    state,
    calls,
    hold(p: Promise<void>) {
      gate = p;
    },
    fetch: async (key: string) => {
      calls.push(key);
      const answer = state[key] ?? null; // read before waiting: an answer computed before a revocation
      if (gate) await gate;
      return answer;
    },
  };
}

const lookup = (src: ReturnType<typeof source>, log = new InvalidationLog(60_000)) =>
  new CachedLookup<string>({
    log,
    max: 100,
    ttlMs: 60_000,
    negativeTtlMs: 1_000,
    fetch: src.fetch,
    deps: (key, value) => [`k:${key}`, ...(value ? [`v:${value}`] : [])],
  });

describe("CachedLookup", () => {
  it("answers from the cache after the first load", async () => {
    const src = source({ a: "x" });
    const cache = lookup(src);
    assert.equal(cache.peek("a"), undefined);
    assert.equal(await cache.load("a", undefined), "x");
    assert.equal(cache.peek("a"), "x");
    assert.deepEqual(src.calls, ["a"]);
  });

  it("caches a negative answer as null", async () => {
    const src = source({});
    const cache = lookup(src);
    assert.equal(await cache.load("missing", undefined), null);
    assert.equal(cache.peek("missing"), null);
  });

  it("shares one fetch between concurrent misses", async () => {
    const src = source({ a: "x" });
    const cache = lookup(src);
    const answers = await Promise.all([
      cache.load("a", undefined),
      cache.load("a", undefined),
      cache.load("a", undefined),
    ]);
    assert.deepEqual(answers, ["x", "x", "x"]);
    assert.equal(src.calls.length, 1);
  });

  it("drops an entry when a key it depends on is invalidated", async () => {
    const log = new InvalidationLog(60_000);
    const src = source({ a: "x" });
    const cache = lookup(src, log);
    await cache.load("a", undefined);
    log.mark(["v:x"]);
    assert.equal(cache.peek("a"), undefined);
  });

  it("never stores or returns an answer fetched before an invalidation that ran during the fetch", async () => {
    const log = new InvalidationLog(60_000);
    const src = source({ a: "active" });
    const cache = lookup(src, log);
    let release!: () => void;
    src.hold(
      new Promise<void>((resolve) => {
        release = resolve;
      }),
    );
    const early = cache.load("a", undefined);
    src.state.a = "revoked";
    log.mark(["k:a"]);
    const late = cache.load("a", undefined); // arrives after the revocation: must not join the early fetch
    release();
    assert.equal(await late, "revoked");
    assert.equal(await early, "revoked", "the early fetch was retried, not trusted");
    assert.equal(cache.peek("a"), "revoked");
  });

  it("refuses a TTL longer than the log remembers marks", () => {
    const src = source({});
    assert.throws(
      () =>
        new CachedLookup({
          log: new InvalidationLog(10),
          max: 1,
          ttlMs: 20,
          negativeTtlMs: 1,
          fetch: src.fetch,
          deps: () => [],
        }),
      RangeError,
    );
  });
});
