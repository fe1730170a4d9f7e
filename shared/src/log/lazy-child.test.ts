import assert from "node:assert/strict";
import { describe, it } from "vitest";
import { captureLogs } from "./capture.ts";
import { lazyChild } from "./lazy-child.ts";
import { createLogger } from "./logger.ts";

describe("lazyChild", () => {
  it("logs with the bindings, supports child() and level changes, like a pino child", () => {
    const capture = captureLogs();
    const parent = createLogger({ service: "lazy", level: "info", destination: capture.stream, env: {} });
    const logger = lazyChild(parent, { request_id: "req_lazy0001", token: "tok-should-be-redacted" });
    assert.equal(logger.isLevelEnabled("debug"), false);
    logger.info({ a: 1 }, "first");
    logger.child({ step: "two" }).warn("second");
    logger.level = "debug";
    logger.debug("third");
    assert.deepEqual(
      capture.lines.map((l) => [l.msg, l.request_id, l.token]),
      [
        ["first", "req_lazy0001", "[redacted]"],
        ["second", "req_lazy0001", "[redacted]"],
        ["third", "req_lazy0001", "[redacted]"],
      ],
    );
    assert.equal(capture.lines[1]!.step, "two");
    assert.equal(parent.level, "info", "the parent's level is untouched");
  });
});
