import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "vitest";
import { deployedServices } from "./services.ts";
import { DOCKERFILE, repoRoot, serviceCommand } from "./stacks/compute.ts";

// The image cannot be built here (no Docker): these are static checks of the Dockerfile and of the
// command each ECS task definition runs in it (deploy/aws/README.md).
const instructions = readFileSync(join(repoRoot, DOCKERFILE), "utf8")
  .replace(/\\\n/g, " ")
  .split("\n")
  .filter((l) => l.trim() && !l.trim().startsWith("#"))
  .map((l) => l.trim());
const last = (keyword: string) => instructions.filter((l) => l.startsWith(`${keyword} `)).at(-1);

describe("the Dockerfile the deployment builds", () => {
  it("runs as a non-root user", () => {
    const user = last("USER")?.split(/\s+/)[1];
    assert.ok(user, "no USER instruction");
    assert.doesNotMatch(user, /^(root|0)(:|$)/);
    // USER comes after every RUN (the install runs as root, the service never does).
    const lastRun = instructions.findLastIndex((l) => l.startsWith("RUN "));
    assert.ok(instructions.findIndex((l) => l.startsWith("USER ")) > lastRun);
  });

  it("has a health check on /readyz", () => {
    assert.match(last("HEALTHCHECK") ?? "", /\/readyz/);
  });

  it("holds every service's entry: the command per service names a main.ts that exists", () => {
    for (const service of deployedServices) {
      const command = serviceCommand(service);
      for (const file of command.slice(1)) assert.ok(existsSync(join(repoRoot, file)), `${service}: ${file}`);
    }
    // Nothing from the host's installs or state reaches the build context.
    const ignored = readFileSync(join(repoRoot, `${DOCKERFILE}.dockerignore`), "utf8");
    for (const entry of ["**/node_modules", ".git", ".local"]) assert.ok(ignored.includes(entry), entry);
  });
});
