import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";
import { promisify } from "node:util";
import { nodeBinary } from "@flowstate/shared/testing/node-binary";
import { afterAll, beforeAll, describe, test } from "vitest";
import { type AuditHarness, startAuditHarness } from "../testing/harness.ts";
import { importLegacy } from "./import-legacy.ts";

const fixture = new URL("../../test/fixtures/legacy-audit.jsonl", import.meta.url).pathname;
const cli = new URL("./import-cli.ts", import.meta.url).pathname;

let h: AuditHarness;
beforeAll(async () => {
  h = await startAuditHarness({ prefix: "legacy" });
});
afterAll(() => h?.close());

const runCli = async () => {
  try {
    const { stdout } = await promisify(execFile)(nodeBinary, [cli, fixture], {
      env: { ...process.env, AUDIT_OWNER_DATABASE_URL: h.urls.owner, DATABASE_SCHEMA: h.schema },
    });
    return { code: 0, report: JSON.parse(stdout) };
  } catch (err) {
    const e = err as { code: number; stdout: string };
    return { code: e.code, report: JSON.parse(e.stdout) };
  }
};

describe("the legacy import (rows from before 2026-09-25 that name people by e-mail)", () => {
  test("imports the fixture's valid rows into the legacy shape and reports the refused lines by number", async () => {
    const first = await runCli();
    assert.equal(first.code, 1, "a refused line makes the exit code 1");
    assert.deepEqual(first.report, {
      imported: 4,
      duplicates: 0,
      rejected: [
        { line: 5, reason: "invalid occurred_at" },
        { line: 6, reason: "not JSON" },
        { line: 7, reason: "invalid actor_email" },
      ],
    });
    const rows = await h.asOwner<Record<string, unknown>[]>("SELECT * FROM audit_event_legacy ORDER BY legacy_id");
    assert.deepEqual(
      rows.map((r) => [r.legacy_id, r.shape, r.actor_email, r.target_email]),
      [
        ["legacy-000001", "legacy_email", "olga.owner@legacy.example.com", null],
        ["legacy-000002", "legacy_email", "olga.owner@legacy.example.com", "max.member@legacy.example.com"],
        ["legacy-000003", "legacy_email", "olga.owner@legacy.example.com", "max.member@legacy.example.com"],
        ["legacy-000004", "legacy_email", "max.member@legacy.example.com", null],
      ],
    );
    assert.equal(rows[2]!.target_sub, "usr_LegacyUser00000002");
    const stored = JSON.stringify(rows);
    for (const dropped of ["198.51.100.23", "Invited Max Member", "late.row@"])
      assert.ok(!stored.includes(dropped), `${dropped} is not stored`);
  });

  test("importing the same file again imports nothing", async () => {
    const again = await runCli();
    assert.deepEqual([again.report.imported, again.report.duplicates], [0, 4]);
  });

  test("the service's role cannot import: the shape is the owner's import only", async () => {
    const lines = readFileSync(fixture, "utf8").split("\n").slice(0, 1);
    await assert.rejects(
      h.inTransaction((em) =>
        importLegacy(
          em,
          h.schema,
          lines.map((l) => l.replace("000001", "000099")),
        ),
      ),
      /permission denied/,
    );
  });

  test("the database refuses a legacy row dated on or after 2026-09-25 whatever the import checks", async () => {
    await assert.rejects(
      h.asOwner(
        "INSERT INTO audit_event_legacy (legacy_id, event_type, occurred_at, actor_email) VALUES ('late', 'x', '2026-09-25T00:00:00Z', 'a@b.c')",
      ),
      /audit_event_legacy_occurred_at_check/,
    );
  });
});
