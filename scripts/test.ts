/**
 * The test command behind `npm test` (after typecheck and lint): runs vitest (vitest.config.ts) on
 * the project's pinned Node 24; `npm run coverage` is the same run with V8 coverage (`--coverage`,
 * a text summary). Not in `npm test`: nothing reads the figure (no threshold), and collecting it
 * cost ~11% of the suite (same clone, same hour, four workers: 462-470 s with it, 415 s without).
 * The global set-up brings up PostgreSQL and moto and scans the logs for secrets
 * (scripts/lib/test-environment.ts).
 * Arguments are folders or files to run, e.g. `node scripts/test.ts services/identity-svc`, or
 * vitest flags. The last line printed is the verdict for CI: "tests: N passed, N failed, N skipped".
 */
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { nodeBinary } from "@flowstate/shared/testing/node-binary";

const root = join(import.meta.dirname, "..");
const args = process.argv.slice(2);
const results = join(mkdtempSync(join(tmpdir(), "flowstate-vitest-")), "results.json");

const child = spawn(
  nodeBinary,
  [
    join(root, "node_modules", "vitest", "vitest.mjs"),
    "run",
    "--reporter=default",
    "--reporter=json",
    `--outputFile.json=${results}`,
    ...args,
  ],
  { cwd: root, stdio: "inherit" },
);
const code: number = await new Promise((resolve) => child.once("exit", (c, signal) => resolve(c ?? (signal ? 1 : 0))));

const counts = existsSync(results)
  ? (JSON.parse(readFileSync(results, "utf8")) as {
      numPassedTests: number;
      numFailedTests: number;
      numPendingTests: number;
    })
  : undefined;
const verdict = counts
  ? `tests: ${counts.numPassedTests} passed, ${counts.numFailedTests} failed, ${counts.numPendingTests} skipped`
  : "tests: no results (vitest did not finish)";
console.log(
  code === 0
    ? verdict
    : `${verdict}; FAILED (exit code ${code}${counts?.numFailedTests ? "" : ", see the errors above"})`,
);
process.exit(code);
