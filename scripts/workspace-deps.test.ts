import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "vitest";

/**
 * Two copies of zod make `instanceof ZodError` and schema identity fail across packages, so the
 * repo keeps exactly one: every workspace declares the same version and the lockfile installs one.
 */
const root = join(import.meta.dirname, "..");
const workspaces = ["contracts", "shared", ...readdirSync(join(root, "services")).map((s) => `services/${s}`)];
const manifest = (dir: string) => JSON.parse(readFileSync(join(root, dir, "package.json"), "utf8"));

describe("workspace dependencies", () => {
  it("declare one and the same zod version wherever zod is a dependency", () => {
    const versions = new Set(
      workspaces.map((w) => manifest(w).dependencies?.zod).filter((v): v is string => typeof v === "string"),
    );
    assert.deepEqual([...versions], ["4.6.7"]);
  });

  it("install exactly one zod package", () => {
    const lock = JSON.parse(readFileSync(join(root, "package-lock.json"), "utf8"));
    const zods = Object.keys(lock.packages).filter((p) => p === "node_modules/zod" || p.endsWith("/node_modules/zod"));
    assert.deepEqual(zods, ["node_modules/zod"]);
  });

  it("contracts depends on zod only", () => {
    assert.deepEqual(Object.keys(manifest("contracts").dependencies ?? {}), ["zod"]);
  });
});
