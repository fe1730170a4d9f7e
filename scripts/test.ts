/**
 * The test command behind `npm test` (after typecheck and lint): brings up what the suites need
 * (PostgreSQL, a fresh moto_server unless AWS_ENDPOINT_URL points at one), then runs every
 * `*.test.ts` with Node's test runner. Extra arguments go to the runner, e.g.
 * `node scripts/test.ts services/identity-svc`.
 */
import { spawn } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type Moto, startMoto } from "../deploy/local/moto.ts";
import { ensureDatabase, ensurePostgres } from "../deploy/local/postgres.ts";
import { scanLogs } from "./lib/log-scan.ts";

const databaseUrl = process.env.DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/flowstate_test";
await ensurePostgres(databaseUrl);
ensureDatabase(databaseUrl);

let moto: Moto | undefined;
if (!process.env.AWS_ENDPOINT_URL) moto = await startMoto();

const logDir = process.env.FLOWSTATE_LOG_DIR ?? mkdtempSync(join(tmpdir(), "flowstate-logs-"));

const targets = process.argv.slice(2);
const patterns = targets.length
  ? targets.map((t) => (t.endsWith(".ts") ? t : `${t.replace(/\/$/, "")}/**/*.test.ts`))
  : ["**/*.test.ts"];

const child = spawn(process.execPath, ["--test", "--test-concurrency=3", "--test-timeout=120000", ...patterns], {
  stdio: "inherit",
  env: {
    ...process.env,
    DATABASE_URL: databaseUrl,
    AWS_ENDPOINT_URL: process.env.AWS_ENDPOINT_URL ?? moto?.endpoint,
    AWS_ACCESS_KEY_ID: process.env.AWS_ACCESS_KEY_ID ?? "testing",
    AWS_SECRET_ACCESS_KEY: process.env.AWS_SECRET_ACCESS_KEY ?? "testing",
    NODE_ENV: "test",
    FLOWSTATE_LOG_DIR: logDir,
  },
});
const code: number = await new Promise((resolve) => child.once("exit", (c, signal) => resolve(c ?? (signal ? 1 : 0))));
await moto?.stop();

const scan = scanLogs(logDir);
console.log(`log scan: ${scan.lines} lines in ${scan.files} files checked for ${scan.secrets} recorded secrets`);
if (scan.findings.length) {
  console.error(`log scan FAILED: secrets in logs (${logDir}):\n  ${scan.findings.slice(0, 50).join("\n  ")}`);
  process.exit(code || 1);
}
process.exit(code);
