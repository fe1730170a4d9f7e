import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, it } from "vitest";
import { nodeBinary } from "../testing/node-binary.ts";
import { captureLogs } from "./capture.ts";
import { createLogger } from "./logger.ts";

const script = new URL("./testdata/log-twice.ts", import.meta.url).pathname;
const runChild = (env: Record<string, string>) =>
  spawnSync(nodeBinary, [script], { env: { PATH: process.env.PATH, ...env }, encoding: "utf8", timeout: 20_000 });

describe("createLogger", () => {
  it("writes structured JSON with the service, a level label and an ISO time", () => {
    const capture = captureLogs();
    createLogger({ service: "svc-a", destination: capture.stream }).info({ tenant_id: "tnt_x" }, "hello");
    const line = capture.lines[0]!;
    assert.equal(line.service, "svc-a");
    assert.equal(line.level, "info");
    assert.equal(line.msg, "hello");
    assert.equal(line.tenant_id, "tnt_x");
    assert.match(String(line.time), /^\d{4}-\d\d-\d\dT/);
  });

  it("honours the level given for a destination", () => {
    const capture = captureLogs();
    const logger = createLogger({ service: "svc-b", level: "warn", destination: capture.stream });
    logger.info("dropped");
    logger.warn("kept");
    assert.deepEqual(
      capture.lines.map((l) => l.msg),
      ["kept"],
    );
  });

  it("keeps stdout silent under NODE_ENV=test even when the service passes its configured level", () => {
    assert.equal(createLogger({ service: "svc-c", level: "info", env: { NODE_ENV: "test" } }).level, "silent");
    assert.equal(
      createLogger({ service: "svc-c", level: "info", env: { NODE_ENV: "test", LOG_LEVEL: "warn" } }).level,
      "warn",
    );
    assert.equal(createLogger({ service: "svc-c", level: "debug", env: {} }).level, "debug");
  });

  it("tees every line to $FLOWSTATE_LOG_DIR/<service>-<pid>.jsonl while stdout stays quiet under test", () => {
    const dir = mkdtempSync(join(tmpdir(), "flowstate-log-test-"));
    const result = runChild({ NODE_ENV: "test", FLOWSTATE_LOG_DIR: dir });
    assert.equal(result.status, 0, result.stderr);
    assert.equal(result.stdout, "");
    const files = readdirSync(dir);
    assert.equal(files.length, 1);
    assert.match(files[0]!, /^tee-test-\d+\.jsonl$/);
    const lines = readFileSync(join(dir, files[0]!), "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    assert.deepEqual(
      lines.map((l) => [l.level, l.msg]),
      [
        ["debug", "first"],
        ["info", "second"],
      ],
    );
    assert.equal(lines[1].api_key, "[redacted]");
  });

  it("prints to stdout at LOG_LEVEL and also tees when not under test", () => {
    const dir = mkdtempSync(join(tmpdir(), "flowstate-log-test-"));
    const result = runChild({ LOG_LEVEL: "info", FLOWSTATE_LOG_DIR: dir });
    assert.equal(result.status, 0, result.stderr);
    const printed = result.stdout
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    assert.deepEqual(
      printed.map((l) => l.msg),
      ["second"],
    );
    const teed = readFileSync(join(dir, readdirSync(dir)[0]!), "utf8")
      .trim()
      .split("\n");
    assert.equal(teed.length, 1);
  });
});
