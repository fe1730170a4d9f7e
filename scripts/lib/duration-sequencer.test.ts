import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { describe, it } from "vitest";
import { longestFirst } from "./duration-sequencer.ts";

describe("longestFirst (the test sequencer's order)", () => {
  it("puts unmeasured files first, then the measured ones longest first, whatever their project", () => {
    const seconds = {
      "services/web-console/test/a.test.ts": 80,
      "contracts/src/b.test.ts": 0.1,
      "shared/c.test.ts": 40,
    };
    const files = [
      "contracts/src/b.test.ts",
      "shared/c.test.ts",
      "services/new.test.ts",
      "services/web-console/test/a.test.ts",
    ];
    assert.deepEqual(
      longestFirst(files, (f) => f, seconds),
      ["services/new.test.ts", "services/web-console/test/a.test.ts", "shared/c.test.ts", "contracts/src/b.test.ts"],
    );
  });

  it("reads a committed table of real files (a renamed file is only unmeasured, never lost)", () => {
    const table = JSON.parse(readFileSync(new URL("./test-durations.json", import.meta.url), "utf8")) as Record<
      string,
      number
    >;
    assert.ok(Object.keys(table).length > 100);
    assert.ok(Object.keys(table).every((f) => f.endsWith(".test.ts") && !f.startsWith("/")));
  });
});
