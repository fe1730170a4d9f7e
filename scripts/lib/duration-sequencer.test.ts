import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { describe, it } from "vitest";
import { longestFirst } from "./duration-sequencer.ts";

describe("longestFirst (the test sequencer's order)", () => {
  it("keeps each project's files together, the projects with most time first, their files longest first", () => {
    const seconds = {
      "services/web-console/test/a.test.ts": 80,
      "services/web-console/test/b.test.ts": 1,
      "contracts/src/c.test.ts": 0.1,
      "shared/d.test.ts": 40,
      "shared/e.test.ts": 30,
    };
    const files = [
      "contracts/src/c.test.ts",
      "shared/e.test.ts",
      "services/web-console/test/b.test.ts",
      "shared/new.test.ts",
      "shared/d.test.ts",
      "services/web-console/test/a.test.ts",
    ];
    const project = (f: string) => f.split("/")[f.startsWith("services/") ? 1 : 0]!;
    assert.deepEqual(
      longestFirst(files, (f) => f, project, seconds),
      [
        "services/web-console/test/a.test.ts",
        "services/web-console/test/b.test.ts",
        "shared/new.test.ts",
        "shared/d.test.ts",
        "shared/e.test.ts",
        "contracts/src/c.test.ts",
      ],
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
