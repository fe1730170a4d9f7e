/**
 * One vitest project per workspace package (contracts, shared, every services/* folder, found by
 * listing the folder so a new service needs no edit here) plus the root folders that hold tests.
 * The global set-up (scripts/lib/test-environment.ts) brings up PostgreSQL and moto and runs the
 * log-secret scan at the end. `npm test` runs this through scripts/test.ts, `npm run coverage` the
 * same with coverage on.
 */
import { existsSync, globSync } from "node:fs";
import { dirname } from "node:path";
import { configDefaults, defineConfig } from "vitest/config";
import { COMPILE_CACHE_DIR } from "./deploy/local/compile-cache.ts";
import { DurationSequencer } from "./scripts/lib/duration-sequencer.ts";

const folders = [
  "contracts",
  "shared",
  ...globSync("services/*/package.json")
    .map((p) => dirname(p))
    .sort(),
  "deploy",
  "scripts",
  "bench",
].filter((folder) => existsSync(folder));

export default defineConfig({
  test: {
    globalSetup: ["scripts/lib/test-environment.ts"],
    projects: folders.map((folder) => ({
      extends: true,
      test: {
        name: folder.replace(/^services\//, ""),
        include: [`${folder}/**/*.test.ts`],
        exclude: [...configDefaults.exclude, "**/.terraform/**"],
      },
    })),
    // Files in worker processes, four at a time. The suites start services, relays and consumers,
    // and many of the longest wait (timeouts, breakers, a browser, stacks booting), so a 2-core
    // machine runs a fourth file in the time the other three leave: on 2026-11-27, same clone and
    // hour, without coverage, 482 s with three workers against 395 s with four.
    pool: "forks",
    maxWorkers: 4,
    // A worker runs its files one after another in one process, modules loaded once (no per-file
    // re-import): the suite is CPU-bound, and re-importing each file's services cost about half of
    // a folder's CPU (identity-svc: 54 -> 24 CPU-seconds, 34 -> 17 s). Nothing here relies on a fresh
    // module state: apps, ORMs and caches are built per test from their deps (no module singletons).
    isolate: false,
    // The projects with most time first, each project's longest files first, a project's files
    // together (scripts/lib/duration-sequencer.ts): no long file left to run alone at the end.
    sequence: { sequencer: DurationSequencer },
    // describe.concurrent suites (outbox relay, consumer) run all their tests at once, as before.
    maxConcurrency: 16,
    // Node's on-disk code cache (deploy/local/stack.ts says why) for the workers and every process
    // the tests spawn (npm start's stacks, services, CLIs): the suite starts ~200 Node processes. The
    // files coverage measures are compiled by vitest's module runner, not Node's loader, so the
    // cache does not touch them (the coverage summary is the same with it: 83.01% statements).
    env: { NODE_COMPILE_CACHE: COMPILE_CACHE_DIR },
    // Generous, as before (--test-timeout=120000): moto and Argon2 are slow under a loaded CPU.
    testTimeout: 120_000,
    hookTimeout: 120_000,
    teardownTimeout: 60_000,
    coverage: {
      provider: "v8",
      include: ["contracts/src/**", "shared/src/**", "services/*/src/**", "deploy/**/*.ts", "scripts/**/*.ts"],
      exclude: ["**/*.test.ts", "**/node_modules/**"],
      reporter: ["text-summary"],
      reportOnFailure: true,
    },
  },
});
