import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { nodeBinary } from "@flowstate/shared/testing/node-binary";
import { describe, it } from "vitest";
import { MOTO_REQUIREMENT } from "./moto.ts";

const repoRoot = join(import.meta.dirname, "..", "..");
const venvPython = join(repoRoot, ".local", "venv", "bin", "python");

/** issue 23: "when moto_server is not on PATH, npm start says exactly how to get it". */
describe("finding moto on a machine without it", () => {
  it.skipIf(existsSync(venvPython))(
    "says how to install the pinned moto, or where to point AWS_ENDPOINT_URL, when neither python3 nor moto_server is on PATH",
    () => {
      // An empty folder as PATH: no python3, no moto_server, no sh (findMoto looks commands up through it).
      const emptyPath = mkdtempSync(join(tmpdir(), "no-moto-"));
      const run = spawnSync(
        nodeBinary,
        ["-e", `import(${JSON.stringify(join(import.meta.dirname, "moto.ts"))}).then((m) => m.findMoto())`],
        { env: { PATH: emptyPath, HOME: process.env.HOME }, encoding: "utf8", timeout: 30_000 },
      );
      assert.notEqual(run.status, 0);
      assert.ok(run.stderr.includes(`pip install "${MOTO_REQUIREMENT}"`), run.stderr);
      assert.match(run.stderr, /AWS_ENDPOINT_URL/);
      assert.match(run.stderr, /docker compose up/);
    },
  );
});
