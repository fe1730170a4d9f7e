/**
 * `npm run bench`: runs every bench/*.bench.ts in name order, each in its own process, and prints
 * one table. A file that crashes shows up as a FAILED row and makes the exit code 1; an unmet
 * target is reported in the table, not as a failure (figures vary by machine).
 * `npm run bench -- healthz` runs only the files whose name contains "healthz".
 */
import { fork } from "node:child_process";
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { renderTable } from "./lib/table.ts";
import type { BenchRow } from "./lib/types.ts";

const dir = fileURLToPath(new URL(".", import.meta.url));
const filters = process.argv.slice(2);
const files = readdirSync(dir)
  .filter((f) => f.endsWith(".bench.ts") && (!filters.length || filters.some((x) => f.includes(x))))
  .sort();

function runFile(file: string): Promise<BenchRow[]> {
  return new Promise((resolve, reject) => {
    const child = fork(join(dir, "lib", "run-file.ts"), [join(dir, file)], {
      stdio: ["ignore", "inherit", "inherit", "ipc"],
    });
    let reply: { rows?: BenchRow[]; error?: string } | undefined;
    child.once("message", (m) => {
      reply = m as typeof reply;
    });
    child.once("exit", (code, signal) => {
      if (reply?.rows) resolve(reply.rows);
      else reject(new Error(reply?.error ?? `exited (${code ?? signal}) without rows`));
    });
  });
}

const rows: BenchRow[] = [];
let failed = 0;
for (const file of files) {
  const started = Date.now();
  process.stderr.write(`bench: ${file}…\n`);
  try {
    rows.push(...(await runFile(file)));
    process.stderr.write(`bench: ${file} done in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
  } catch (err) {
    failed++;
    process.stderr.write(`bench: ${file} FAILED: ${(err as Error).message}\n`);
    rows.push({ name: `${file}: FAILED (see above)`, value: Number.NaN, unit: "" });
  }
}
console.log(`\n${renderTable(rows)}\n`);
process.exit(failed ? 1 : 0);
