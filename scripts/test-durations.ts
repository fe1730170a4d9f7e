/**
 * Writes scripts/lib/test-durations.json (seconds per test file) from a full run's vitest JSON
 * report, for the sequencer that runs the longest files first (scripts/lib/duration-sequencer.ts).
 * `npm test` prints nothing of it; refresh after adding long tests:
 *   node scripts/test-durations.ts /tmp/flowstate-vitest-XXXX/results.json
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";

const report = process.argv[2];
if (!report) throw new Error("usage: node scripts/test-durations.ts <vitest results.json>");
const root = join(import.meta.dirname, "..");
const { testResults } = JSON.parse(readFileSync(report, "utf8")) as {
  testResults: { name: string; startTime: number; endTime: number }[];
};
const seconds = Object.fromEntries(
  testResults
    .map((t) => [relativeToRepo(t.name), Math.round((t.endTime - t.startTime) / 100) / 10] as const)
    .sort(([a], [b]) => (a < b ? -1 : 1)),
);
writeFileSync(join(root, "scripts/lib/test-durations.json"), `${JSON.stringify(seconds, null, 1)}\n`);
console.log(`${Object.keys(seconds).length} files written to scripts/lib/test-durations.json`);

/** The path inside the repository, whatever checkout the report was written in (a fresh clone in /tmp). */
function relativeToRepo(file: string): string {
  const marker = /\/(contracts|shared|services|deploy|scripts|bench)\//.exec(file);
  return marker ? file.slice(marker.index + 1) : relative(root, file);
}
