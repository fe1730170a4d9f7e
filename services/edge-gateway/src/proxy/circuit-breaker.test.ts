import assert from "node:assert/strict";
import { setTimeout as sleep } from "node:timers/promises";
import { DomainError } from "@flowstate/shared/errors/domain-error";
import { describe, it } from "vitest";
import { type BreakerState, CircuitBreaker } from "./circuit-breaker.ts";

function breaker(probe: () => Promise<void>, probeIntervalMs = 50) {
  const changes: BreakerState[] = [];
  const b = new CircuitBreaker({
    name: "identity-svc",
    failureThreshold: 3,
    probeIntervalMs,
    probe,
    onChange: (s) => changes.push(s),
  });
  return { b, changes };
}

const refused = (b: CircuitBreaker) => {
  try {
    b.admit();
    return undefined;
  } catch (err) {
    assert.ok(err instanceof DomainError);
    return err;
  }
};

describe("CircuitBreaker", () => {
  it("opens after the threshold of consecutive failures and refuses at once with UPSTREAM_UNAVAILABLE and Retry-After", () => {
    const { b } = breaker(() => new Promise(() => {}), 4_500);
    b.failed();
    b.failed();
    assert.equal(refused(b), undefined, "two failures: still closed");
    b.failed();
    const err = refused(b);
    assert.equal(err?.code, "UPSTREAM_UNAVAILABLE");
    assert.equal(err?.retryAfter, 5, "until the next probe, rounded up");
    b.stop();
  });

  it("counts consecutive failures only: any answer resets the count", () => {
    const { b } = breaker(async () => {});
    b.failed();
    b.failed();
    b.succeeded();
    b.failed();
    b.failed();
    assert.equal(b.state, "closed");
    b.stop();
  });

  it("probes while open, keeps refusing during the probe, and closes by itself when the probe is answered", async () => {
    let healthy = false;
    let probes = 0;
    const { b, changes } = breaker(async () => {
      probes += 1;
      await sleep(20);
      if (!healthy) throw new Error("no answer");
    });
    for (let i = 0; i < 3; i++) b.failed();
    await sleep(60);
    assert.ok(refused(b), "refused while the first probe runs");
    await sleep(120);
    assert.ok(probes >= 2, `probed again after a failed probe (${probes})`);
    assert.notEqual(b.state, "closed");
    healthy = true;
    const deadline = Date.now() + 2_000;
    while (b.state !== "closed" && Date.now() < deadline) await sleep(10);
    assert.equal(b.state, "closed");
    assert.equal(refused(b), undefined);
    assert.deepEqual(changes.slice(0, 3), ["open", "half-open", "open"]);
    assert.equal(changes.at(-1), "closed");
    b.stop();
  });

  it("closes on a late answer to a call admitted before it opened", () => {
    const { b } = breaker(() => new Promise(() => {}), 10_000);
    for (let i = 0; i < 3; i++) b.failed();
    assert.equal(b.state, "open");
    b.succeeded();
    assert.equal(b.state, "closed");
    b.stop();
  });
});
