import assert from "node:assert/strict";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, it } from "vitest";
import { assertLogsClean, scanLogs } from "./log-scan.ts";

describe("scanLogs", () => {
  it("finds a recorded secret in a log line and names the file and line, not the secret", () => {
    const dir = mkdtempSync(join(tmpdir(), "scan-"));
    writeFileSync(join(dir, "secrets.txt"), "hunter2-password-xyz\n");
    writeFileSync(join(dir, "svc-1.jsonl"), '{"msg":"ok"}\n{"msg":"leak hunter2-password-xyz"}\n');
    const r = scanLogs(dir);
    assert.deepEqual(r.findings, ["svc-1.jsonl:2: a recorded secret (20 chars)"]);
  });

  it("flags a JWT-shaped string even when nobody recorded it", () => {
    const dir = mkdtempSync(join(tmpdir(), "scan-"));
    const jwt = `eyJhbGciOiJFUzI1NiJ9.eyJzdWIiOiJ1c3JfMTIzIn0.${"a".repeat(40)}`;
    writeFileSync(join(dir, "svc-2.jsonl"), `{"auth":"${jwt}"}\n`);
    assert.equal(scanLogs(dir).findings.length, 1);
  });

  it("flags an e-mail address in any log line, naming the line, not the address", () => {
    const dir = mkdtempSync(join(tmpdir(), "scan-"));
    writeFileSync(
      join(dir, "svc-6.jsonl"),
      '{"msg":"ok","module":"node_modules/@flowstate/shared"}\n{"err":{"message":"rejected: jane@example.com"}}\n',
    );
    assert.deepEqual(scanLogs(dir).findings, ["svc-6.jsonl:2: an e-mail address"]);
  });

  it("passes clean logs", () => {
    const dir = mkdtempSync(join(tmpdir(), "scan-"));
    writeFileSync(join(dir, "secrets.txt"), "s3cret-value-1\n");
    writeFileSync(join(dir, "svc-3.jsonl"), '{"msg":"request","status":200}\n');
    assert.deepEqual(scanLogs(dir), { files: 1, lines: 1, secrets: 1, findings: [] });
  });
});

describe("assertLogsClean (the test run's global teardown)", () => {
  it("throws, naming each finding, when a recorded secret is in a log line, so the run fails", () => {
    const dir = mkdtempSync(join(tmpdir(), "scan-"));
    writeFileSync(join(dir, "secrets.txt"), "api-key-fs_0123456789\n");
    writeFileSync(join(dir, "svc-4.jsonl"), '{"msg":"ok"}\n{"key":"api-key-fs_0123456789"}\n');
    assert.throws(
      () => assertLogsClean(dir),
      (err: Error) => {
        assert.match(err.message, /log scan FAILED/);
        assert.match(err.message, /svc-4\.jsonl:2: a recorded secret \(21 chars\)/);
        assert.ok(!err.message.includes("api-key-fs_0123456789"), "the error does not repeat the secret");
        return true;
      },
    );
  });

  it("returns the summary line for clean logs", () => {
    const dir = mkdtempSync(join(tmpdir(), "scan-"));
    writeFileSync(join(dir, "svc-5.jsonl"), '{"msg":"request"}\n');
    assert.equal(assertLogsClean(dir), "log scan: 1 lines in 1 files checked for 0 recorded secrets");
  });
});
