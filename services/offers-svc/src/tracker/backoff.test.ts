import assert from "node:assert/strict";
import { describe, it } from "vitest";
import { errorDelaySeconds, MIN_POLL_SECONDS, pollDelaySeconds } from "./backoff.ts";

describe("the tracker's poll schedule", () => {
  it("never polls one change set sooner than every 2 s, thinning out to once a minute", () => {
    const delays = Array.from({ length: 40 }, (_, i) => pollDelaySeconds(i));
    assert.ok(delays.every((d) => d >= MIN_POLL_SECONDS && d <= 60));
    assert.deepEqual(delays.slice(0, 4), [2, 2, 2, 3]);
    assert.equal(delays.at(-1), 60);
    assert.ok(delays.every((d, i) => i === 0 || d >= (delays[i - 1] ?? 0)));
  });

  it("backs off after failed polls from 5 s to 5 minutes", () => {
    assert.deepEqual([0, 1, 2, 10].map(errorDelaySeconds), [5, 10, 20, 300]);
  });
});
