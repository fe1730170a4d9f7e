/**
 * Vitest's global set-up and teardown (wired in vitest.config.ts), run once per test run in the
 * main process before any worker starts: ensures PostgreSQL and database `flowstate_test`, starts
 * a fresh moto_server unless AWS_ENDPOINT_URL points at one, and sets the environment that the
 * workers, and every child process a test spawns, inherit. The teardown stops moto and runs the
 * log-secret scan; a recorded secret (or a JWT) in any log line fails the run.
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type Moto, startMoto } from "../../deploy/local/moto.ts";
import { localPostgres } from "../../deploy/local/postgres.ts";
import { assertLogsClean } from "./log-scan.ts";

export default async function setup(): Promise<() => Promise<void>> {
  // DATABASE_URL, else the server on 127.0.0.1:5432, else an embedded one (stopped in the teardown).
  const postgres = await localPostgres({
    root: join(import.meta.dirname, "..", ".."),
    database: "flowstate_test",
    url: process.env.DATABASE_URL,
  });
  const databaseUrl = postgres.url;

  let moto: Moto | undefined;
  if (!process.env.AWS_ENDPOINT_URL) moto = await startMoto();

  const logDir = process.env.FLOWSTATE_LOG_DIR ?? mkdtempSync(join(tmpdir(), "flowstate-logs-"));
  Object.assign(process.env, {
    DATABASE_URL: databaseUrl,
    AWS_ENDPOINT_URL: process.env.AWS_ENDPOINT_URL ?? moto?.endpoint,
    AWS_ACCESS_KEY_ID: process.env.AWS_ACCESS_KEY_ID ?? "testing",
    AWS_SECRET_ACCESS_KEY: process.env.AWS_SECRET_ACCESS_KEY ?? "testing",
    NODE_ENV: "test",
    FLOWSTATE_LOG_DIR: logDir,
    // A cheap Argon2id for every identity-svc of the run (in-process harnesses and spawned stacks):
    // the suite hashes ~2,200 passwords, ~45 CPU-seconds at OWASP's cost. password.test.ts and the
    // sign-in timing case keep OWASP's; identity-svc refuses this outside NODE_ENV=test.
    ARGON2_PARAMS: process.env.ARGON2_PARAMS ?? "m=512,t=1,p=1",
  });

  return async () => {
    await moto?.stop();
    await postgres.stop();
    // Throws on a finding: an error in the global teardown makes vitest exit non-zero.
    console.log(assertLogsClean(logDir));
  };
}
