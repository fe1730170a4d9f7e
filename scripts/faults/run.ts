/**
 * `npm run faults`: the fault suite (scripts/faults/suite.ts) over every fault, one round each, then
 * the report. `npm run faults -- kill privacy-svc stop identity-svc` runs only those faults;
 * `kill privacy-svc mid-send` kills it while a ready e-mail's SES call is in flight.
 * `npm run faults -- --soak 10` runs the flows for 10 minutes with one random fault a minute.
 * Exits 1 unless every count is zero. The stack's output goes to .local/faults-stack.log.
 */
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { everyFault, type Fault } from "./faults.ts";
import { defaultLogFile, reportIsClean, reportTable, runFaultSuite } from "./suite.ts";

const root = fileURLToPath(new URL("../..", import.meta.url));
const args = process.argv.slice(2);
const soak = args.indexOf("--soak");
const soakMinutes = soak >= 0 ? Number(args[soak + 1] ?? 10) : 0;
const named: Fault[] = [];
for (let i = 0; i < args.length; i++) {
  const kind = args[i];
  if (kind === "kill" || kind === "stop" || kind === "throttle" || kind === "error") {
    const fault: Fault = { kind, target: args[++i]! };
    if (kind === "kill" && args[i + 1] === "mid-send") {
      fault.during = "mail";
      i++;
    }
    named.push(fault);
  }
}
mkdirSync(join(root, ".local"), { recursive: true });

const report = await runFaultSuite({
  root,
  logFile: defaultLogFile(join(root, ".local")),
  faults: (stack) => {
    if (named.length) return named;
    const all = everyFault(stack);
    if (!soakMinutes) return all;
    // A soak: a random fault a minute (each round runs the flows about a minute).
    return Array.from({ length: soakMinutes }, () => all[Math.floor(Math.random() * all.length)]!);
  },
  ...(soakMinutes ? { roundMs: 60_000 } : {}),
});
console.log(`\n${reportTable(report)}`);
for (const u of report.unexplained.slice(0, 20))
  console.log(`unexplained: ${u.flow}/${u.step} ${u.status} ${u.code ?? u.detail ?? ""}`);
process.exit(reportIsClean(report) ? 0 : 1);
