import assert from "node:assert/strict";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, it } from "vitest";
import { recordSecret } from "./secrets.ts";

describe("recordSecret", () => {
  it("appends each secret on its own line to $FLOWSTATE_LOG_DIR/secrets.txt and returns it", () => {
    const dir = join(mkdtempSync(join(tmpdir(), "flowstate-secrets-")), "logs");
    const env = { FLOWSTATE_LOG_DIR: dir };
    assert.equal(recordSecret("first-secret-value", env), "first-secret-value");
    recordSecret("second-secret-value", env);
    assert.equal(readFileSync(join(dir, "secrets.txt"), "utf8"), "first-secret-value\nsecond-secret-value\n");
  });

  it("does nothing but return the value when no log directory is set", () => {
    assert.equal(recordSecret("a-secret-without-dir", {}), "a-secret-without-dir");
  });

  it("refuses secrets too short to scan for and secrets with line breaks", () => {
    assert.throws(() => recordSecret("short", {}), /shorter than 8/);
    assert.throws(() => recordSecret("two\nlines-here", {}), /line break/);
  });
});
