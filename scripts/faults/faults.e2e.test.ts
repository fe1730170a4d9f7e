import assert from "node:assert/strict";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, it } from "vitest";
import { defaultLogFile, reportIsClean, reportTable, runFaultSuite } from "./suite.ts";

/**
 * The CI-sized subset of `npm run faults` (issue 24): the whole system as `npm start` runs it, the
 * four flows looping through the gateway, and three faults mid-flow — a service killed and
 * restarted (offers-svc, in the middle of offer changes), a service stalled 10 s (identity-svc, which
 * every flow's credential check reaches) and every database connection terminated. Nothing lost,
 * nothing done twice, every answer one the interface documents.
 */
describe("the fault suite, CI subset", () => {
  it("loses nothing, does nothing twice and answers only documented statuses through three faults", async () => {
    const report = await runFaultSuite({
      root: fileURLToPath(new URL("../..", import.meta.url)),
      prefix: "faultsci",
      logFile: defaultLogFile(mkdtempSync(join(tmpdir(), "flowstate-faults-"))),
      faults: () => [
        // Not privacy-svc: its ready e-mail is sent at most once by design (privacy-svc README), so a
        // kill between the send's claim and SES's answer loses that mail — seen once in a fresh-clone
        // run. `npm run faults` still kills it and reports it; the CI subset must not flake on it.
        { kind: "kill", target: "offers-svc" },
        { kind: "stop", target: "identity-svc" },
        { kind: "kill", target: "postgresql" },
      ],
      print: () => {},
    });
    assert.ok(reportIsClean(report), reportTable(report));
    for (const row of report.rows)
      for (const [flow, cell] of Object.entries(row.cells)) assert.ok(cell.runs > 0, `${row.fault}: no ${flow} ran`);
  }, 600_000);
});
