/**
 * Runs one bench file in this process (spawned by bench/run.ts, one process per file) and sends
 * its rows back over IPC, so a crash costs one file's rows and CPU figures never mix.
 */
import { pathToFileURL } from "node:url";
import type { BenchFile } from "./types.ts";

const file = process.argv[2]!;
try {
  const mod = (await import(pathToFileURL(file).href)) as { default: BenchFile };
  const rows = await mod.default();
  process.send!({ rows }, () => process.exit(0));
} catch (err) {
  process.send!({ error: err instanceof Error ? (err.stack ?? err.message) : String(err) }, () => process.exit(1));
}
