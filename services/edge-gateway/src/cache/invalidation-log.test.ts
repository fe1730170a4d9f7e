import assert from "node:assert/strict";
import { describe, it } from "vitest";
import { InvalidationLog } from "./invalidation-log.ts";

describe("InvalidationLog", () => {
  it("keeps an entry fresh when its keys were marked before its fetch started", () => {
    const log = new InvalidationLog(60_000);
    log.mark(["acct:usr_a"], 0);
    const seq = log.snapshot();
    assert.equal(log.isFresh(["acct:usr_a"], seq), true);
  });

  it("makes an entry stale when one of its keys is marked after its fetch started", () => {
    const log = new InvalidationLog(60_000);
    const seq = log.snapshot();
    log.mark(["ses:ses_b"], 0);
    assert.equal(log.isFresh(["ses:ses_a", "acct:usr_a"], seq), true);
    assert.equal(log.isFresh(["ses:ses_b", "acct:usr_a"], seq), false);
  });

  it("makes every entry stale after markAll", () => {
    const log = new InvalidationLog(60_000);
    const before = log.snapshot();
    log.markAll();
    assert.equal(log.isFresh([], before), false);
    assert.equal(log.isFresh([], log.snapshot()), true);
  });

  it("answers as a plain model of its marks through many marks, re-marks and prunes", () => {
    // The model: each key's latest mark (sequence and time); a mark is forgotten once a later
    // mark() call sees it older than the retention. A re-marked key must count as young.
    const retention = 1_000;
    const log = new InvalidationLog(retention);
    const model = new Map<string, { seq: number; at: number }>();
    let seed = 11;
    const random = (n: number) => {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
      return seed % n;
    };
    let now = 0;
    for (let i = 0; i < 20_000; i++) {
      now += random(30);
      // A few hot keys marked over and over among many that rotate.
      const keys = Array.from({ length: 1 + random(3) }, () => (random(4) ? `k${random(400)}` : `hot${random(3)}`));
      log.mark(keys, now);
      const seq = log.snapshot();
      for (const key of keys) model.set(key, { seq, at: now });
      for (const [key, mark] of model) if (mark.at < now - retention) model.delete(key);
      assert.equal(log.size, model.size, `mark ${i}: size`);
      const fetchedAt = random(seq + 1);
      const deps = [`k${random(400)}`, `hot${random(3)}`];
      const fresh = deps.every((key) => (model.get(key)?.seq ?? 0) <= fetchedAt);
      assert.equal(log.isFresh(deps, fetchedAt), fresh, `mark ${i}: isFresh(${deps}, ${fetchedAt})`);
    }
  });

  it("forgets marks older than its retention so it stays small", () => {
    const log = new InvalidationLog(1_000);
    for (let i = 0; i < 500; i++) log.mark([`acct:usr_${i}`], i * 10);
    assert.ok(log.size <= 101, `kept ${log.size} marks`);
  });
});
