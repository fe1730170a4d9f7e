import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { join } from "node:path";
import { nodeBinary } from "@flowstate/shared/testing/node-binary";
import { afterAll, beforeAll, describe, test } from "vitest";
import { freePort } from "../../../deploy/local/ports.ts";
import { retentionWindowProblem } from "../src/archive/retention.ts";
import { type AuditHarness, startAuditHarness } from "../src/testing/harness.ts";

const main = join(import.meta.dirname, "..", "src", "main.ts");

let h: AuditHarness;
beforeAll(async () => {
  h = await startAuditHarness({ prefix: "retention_floor" });
});
afterAll(() => h?.close());

/** The real audit-svc (src/main.ts) with `days` of retention; resolves with its exit code and stderr. */
async function boot(days: number): Promise<{ code: number | null; stderr: string }> {
  const child = spawn(nodeBinary, [main], {
    env: {
      ...process.env,
      PORT: String(await freePort()),
      SERVICE_PREFIX: `tfloor${randomBytes(4).toString("hex")}`,
      STAGE: "dev",
      DATABASE_URL: h.urls.service,
      DATABASE_SCHEMA: h.schema,
      AUDIT_ARCHIVE_BUCKET: "unused-bucket",
      AUDIT_RETENTION_DAYS: String(days),
      CONSUME_EVENTS: "false",
    },
    stdio: ["ignore", "ignore", "pipe"],
  });
  let stderr = "";
  child.stderr!.on("data", (chunk) => {
    stderr += String(chunk);
  });
  const timer = setTimeout(() => child.kill("SIGKILL"), 60_000);
  const code = await new Promise<number | null>((resolve) => child.once("exit", (c) => resolve(c)));
  clearTimeout(timer);
  return { code, stderr };
}

describe("AUDIT_RETENTION_DAYS against the database's floor", () => {
  test("a window below the owner's minimum is refused at boot, naming the variable and the floor", async () => {
    const { code, stderr } = await boot(30);
    assert.equal(code, 1, stderr);
    assert.match(stderr, /Invalid configuration \(1 problem\):/);
    assert.match(
      stderr,
      /AUDIT_RETENTION_DAYS: 30 days is shorter than the database's minimum live window of 400 days/,
    );
  });

  test("the check says nothing for a window at or above the floor", async () => {
    for (const windowDays of [400, 2555]) {
      assert.equal(await retentionWindowProblem({ orm: h.orm, schema: h.schema, windowDays }), undefined);
    }
    assert.match(
      (await retentionWindowProblem({ orm: h.orm, schema: h.schema, windowDays: 399 })) ?? "",
      /399 days is shorter/,
    );
  });
});
