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

  it("forgets marks older than its retention so it stays small", () => {
    const log = new InvalidationLog(1_000);
    for (let i = 0; i < 500; i++) log.mark([`acct:usr_${i}`], i * 10);
    assert.ok(log.size <= 101, `kept ${log.size} marks`);
  });
});
