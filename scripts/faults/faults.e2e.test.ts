import assert from "node:assert/strict";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, it } from "vitest";
import { defaultLogFile, reportIsClean, reportTable, runFaultSuite } from "./suite.ts";

/**
 * The CI-sized subset of `npm run faults` (issue 24): the whole system as `npm start` runs it, the
 * five flows looping (the partner flow among them) through the gateway, and three faults mid-flow — a service killed and
 * restarted (privacy-svc, while one of its ready e-mails is at SES: the window an at-most-once send
 * lost its mail in), a service stalled 10 s (identity-svc, which every flow's credential check
 * reaches) and every database connection terminated. Nothing lost, nothing done twice (a ready
 * e-mail per export; a second one only where the run's two send-window faults, the kill and the
 * terminated connections, can cause it: `checks.ts`), every answer one the interface documents.
 */
describe("the fault suite, CI subset", () => {
  it("loses nothing, does nothing twice and answers only documented statuses through three faults", async () => {
    const report = await runFaultSuite({
      root: fileURLToPath(new URL("../..", import.meta.url)),
      prefix: "faultsci",
      logFile: defaultLogFile(mkdtempSync(join(tmpdir(), "flowstate-faults-"))),
      faults: () => [
        // Until 2026-11-26 the ready e-mail was at most once and this kill lost it (offers-svc was
        // killed here instead); now the send rolls back with the process and is redelivered.
        { kind: "kill", target: "privacy-svc", during: "mail" },
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
