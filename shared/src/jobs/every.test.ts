import assert from "node:assert/strict";
import { describe, it } from "vitest";
import { captureLogs } from "../log/capture.ts";
import { createLogger } from "../log/logger.ts";
import { every } from "./every.ts";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe("every", () => {
  it("never runs two rounds at once, logs a failure and goes on, and stop() waits for the round in flight", async () => {
    const logs = captureLogs();
    const logger = createLogger({ service: "every-test", destination: logs.stream, level: "debug" });
    let inFlight = 0;
    let most = 0;
    let rounds = 0;
    const chores = every(
      5,
      async () => {
        rounds++;
        inFlight++;
        most = Math.max(most, inFlight);
        await sleep(30);
        inFlight--;
        if (rounds === 1) throw new Error("first round fails");
      },
      { logger, what: "chores" },
    );
    await sleep(120);
    await chores.stop();
    assert.equal(inFlight, 0, "stop waited for the round in flight");
    assert.equal(most, 1);
    assert.ok(rounds >= 2, "went on after the failure");
    assert.ok(logs.lines.some((l) => l.msg === "chores failed; will retry" && l.level === "error"));
    const after = rounds;
    await sleep(30);
    assert.equal(rounds, after, "no round after stop");
  });
});
