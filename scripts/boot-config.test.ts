import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { nodeBinary } from "@flowstate/shared/testing/node-binary";
import { describe, it } from "vitest";

/**
 * "Bad configuration stops a service at boot with a message naming each bad variable", checked on
 * the real entry point of every service (not a stand-in script): the process must exit non-zero
 * before it listens, and its stderr must name every variable we broke.
 */
const root = join(import.meta.dirname, "..");
const services = readdirSync(join(root, "services")).filter((s) =>
  readdirSync(join(root, "services", s, "src")).includes("main.ts"),
);

const broken = { PORT: "not-a-port", STAGE: "staging", LOG_LEVEL: "loud" };

function boot(service: string): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve) => {
    // A diagnostic report on SIGUSR2 (JavaScript and native stacks, open handles), written to stderr:
    // a boot that hangs says where (connector-svc's did once in CI, 2026-11-27, and never again in
    // 16 boots after).
    const diagnose = ["--report-on-signal", "--report-signal=SIGUSR2", "--report-filename=stderr"];
    const child = spawn(nodeBinary, [...diagnose, join(root, "services", service, "src", "main.ts")], {
      env: {
        PATH: process.env.PATH,
        NODE_ENV: "test",
        DATABASE_URL: "postgres://postgres@127.0.0.1:5432/flowstate_test",
        ...broken,
      },
      stdio: ["ignore", "ignore", "pipe"],
    });
    let stderr = "";
    child.stderr.on("data", (c: Buffer) => {
      stderr += c.toString();
    });
    // Generous: a failing boot exits in about a second, but loading a service's modules on a loaded
    // 2-core machine has taken over 20 s; only a real hang should reach this.
    let killer: NodeJS.Timeout | undefined;
    const timer = setTimeout(() => {
      child.kill("SIGUSR2");
      killer = setTimeout(() => child.kill("SIGKILL"), 5_000);
    }, 90_000);
    child.once("exit", (code) => {
      clearTimeout(timer);
      clearTimeout(killer);
      resolve({ code, stderr });
    });
  });
}

describe("a service booted with bad configuration", () => {
  for (const service of services) {
    it(`${service} exits before listening and names every bad variable`, async () => {
      const { code, stderr } = await boot(service);
      assert.notEqual(code, 0, "the process must fail");
      assert.notEqual(code, null, `the process must exit by itself, not hang; its stderr:\n${stderr.slice(0, 20_000)}`);
      for (const name of Object.keys(broken)) assert.match(stderr, new RegExp(`\\b${name}\\b`), `stderr names ${name}`);
    });
  }
});
