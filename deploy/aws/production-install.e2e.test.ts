import assert from "node:assert/strict";
import { execFileSync, spawnSync } from "node:child_process";
import { cpSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { nodeBinary } from "@flowstate/shared/testing/node-binary";
import { afterAll, describe, it } from "vitest";
import { deployedServices } from "./services.ts";
import { DOCKERFILE, repoRoot, serviceCommand } from "./stacks/compute.ts";

/**
 * The image installs production dependencies only (the Dockerfile's `npm ci --omit=dev`: no
 * vitest, CDK, TypeScript or embedded PostgreSQL in what runs). The image cannot be built here (no
 * Docker), so this does what its RUN line does, in a copy of the repository's tracked files: that
 * install, then each service's ECS command with an empty environment. Every import must load: the
 * service gets as far as its configuration check and names what is missing. A runtime import of a
 * package that only a devDependency brings fails here with ERR_MODULE_NOT_FOUND. docker-compose.yml's
 * one-off tasks (the bootstrap, the database roles) run from the same image and must load as well.
 */
const copy = mkdtempSync(join(tmpdir(), "flowstate-prod-install-"));
afterAll(() => rmSync(copy, { recursive: true, force: true }));

describe("the production install the Dockerfile makes", () => {
  it("omits devDependencies, and every service's command loads with it", () => {
    const install = readFileSync(join(repoRoot, DOCKERFILE), "utf8")
      .split("\n")
      .find((l) => l.startsWith("RUN npm ci"));
    assert.ok(install?.includes("--omit=dev"), `the image installs dev dependencies: ${install}`);

    const tracked = execFileSync("git", ["ls-files", "-z"], { cwd: repoRoot, encoding: "utf8" }).split("\0");
    for (const file of tracked.filter(Boolean)) cpSync(join(repoRoot, file), join(copy, file), { recursive: true });
    execFileSync("npm", ["ci", "--omit=dev", "--prefer-offline", "--no-audit", "--no-fund"], {
      cwd: copy,
      stdio: "pipe",
      timeout: 180_000,
    });
    assert.throws(() => execFileSync("test", ["-e", join(copy, "node_modules", "vitest")]), "vitest was installed");

    for (const service of deployedServices) {
      const [, ...args] = serviceCommand(service);
      const run = spawnSync(nodeBinary, args, {
        cwd: copy,
        env: { PATH: process.env.PATH, NODE_ENV: "production" },
        encoding: "utf8",
        timeout: 30_000,
      });
      const out = `${run.stdout}${run.stderr}`;
      assert.doesNotMatch(out, /ERR_MODULE_NOT_FOUND|Cannot find (module|package)/, `${service}: ${out.slice(0, 500)}`);
      assert.match(
        out,
        /Invalid configuration/,
        `${service} did not reach its configuration check: ${out.slice(0, 500)}`,
      );
      assert.notEqual(run.status, 0);
    }
    // docker-compose.yml runs its one-off tasks from the same image: they load too.
    const compose = readFileSync(join(repoRoot, "docker-compose.yml"), "utf8");
    const oneOffs = [...compose.matchAll(/command: \["node", "(deploy\/[^"]+)"\]/g)].map((m) => m[1]!);
    assert.ok(oneOffs.length >= 2, "docker-compose.yml runs the bootstrap and the database roles");
    for (const file of oneOffs) {
      const run = spawnSync(nodeBinary, [file], {
        cwd: copy,
        env: { PATH: process.env.PATH },
        encoding: "utf8",
        timeout: 30_000,
      });
      assert.doesNotMatch(`${run.stdout}${run.stderr}`, /ERR_MODULE_NOT_FOUND|Cannot find (module|package)/, file);
    }
  }, 300_000);
});
