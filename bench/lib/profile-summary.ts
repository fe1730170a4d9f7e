/**
 * Where a service's CPU went during one workload of the gateway bench: reads the V8 profiles that
 * `BENCH_CPU_PROF=<dir> npm run bench -- gateway` leaves in <dir>, keeps only the samples inside the
 * measured windows of that workload (windows.json, written by the bench), and prints self time by
 * package and by function, and inclusive time of the project's own functions.
 *
 * @example
 * node bench/lib/profile-summary.ts /tmp/prof mixed
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
}
interface Profile {
  nodes: { id: number; callFrame: CallFrame; children?: number[] }[];
  startTime: number;
  samples: number[];
  timeDeltas: number[];
}

const [dir = ".", kind = "mixed", top = "15"] = process.argv.slice(2);
const windows = (
  JSON.parse(readFileSync(join(dir, "windows.json"), "utf8")) as { kind: string; startUs: number; endUs: number }[]
).filter((w) => w.kind === kind);
const inWindow = (t: number) => windows.some((w) => t >= w.startUs && t <= w.endUs);
const short = (url: string) =>
  url.replace(/.*node_modules\//, "").replace(/^file:\/\/.*?\/(services|shared|contracts)\//, "$1/");
const pkg = (f: CallFrame) =>
  f.url.match(/node_modules\/((@[^/]+\/)?[^/]+)/)?.[1] ??
  (short(f.url).split("/").slice(0, 3).join("/") || f.functionName);
const fn = (f: CallFrame) => `${f.functionName || "(anonymous)"} ${short(f.url)}:${f.lineNumber + 1}`;
const own = (f: CallFrame) => f.url.startsWith("file://") && !f.url.includes("node_modules");

function print(title: string, totals: Map<string, number>, all: number) {
  console.log(`  ${title}`);
  for (const [k, us] of [...totals].sort((a, b) => b[1] - a[1]).slice(0, Number(top)))
    console.log(`    ${((100 * us) / all).toFixed(1).padStart(5)}%  ${k}`);
}

for (const file of readdirSync(dir).filter((f) => f.endsWith(".cpuprofile"))) {
  const p = JSON.parse(readFileSync(join(dir, file), "utf8")) as Profile;
  const nodes = new Map(p.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of p.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const self = new Map<number, number>();
  let t = p.startTime;
  let all = 0;
  p.samples.forEach((id, i) => {
    t += p.timeDeltas[i] ?? 0;
    if (!inWindow(t)) return;
    self.set(id, (self.get(id) ?? 0) + (p.timeDeltas[i] ?? 0));
    all += p.timeDeltas[i] ?? 0;
  });
  const byPkg = new Map<string, number>();
  const byFn = new Map<string, number>();
  const inclusive = new Map<string, number>();
  for (const [id, us] of self) {
    const frame = nodes.get(id)!.callFrame;
    byPkg.set(pkg(frame), (byPkg.get(pkg(frame)) ?? 0) + us);
    byFn.set(fn(frame), (byFn.get(fn(frame)) ?? 0) + us);
    const seen = new Set<string>();
    for (let cur: number | undefined = id; cur !== undefined; cur = parent.get(cur)) {
      const f = nodes.get(cur)!.callFrame;
      if (own(f) && !seen.has(fn(f))) {
        seen.add(fn(f));
        inclusive.set(fn(f), (inclusive.get(fn(f)) ?? 0) + us);
      }
    }
  }
  console.log(`${file}: ${(all / 1000).toFixed(0)} ms of samples in the ${kind} windows`);
  print("self, by package", byPkg, all);
  print("self, by function", byFn, all);
  print("inclusive, the project's own functions", inclusive, all);
}
