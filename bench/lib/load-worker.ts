/**
 * The load generator behind `measureHttp` (load.ts), run in its own process: receives LoadOptions
 * over IPC, keeps `connections` requests in flight for the duration, answers with a LoadResult.
 */
import { Pool } from "undici";
import type { LoadGroup, LoadOptions, LoadResult } from "./load.ts";

interface Planned {
  group: number;
  method: string;
  path: string;
  headers: Record<string, string> | undefined;
  body: string | undefined;
}
interface Tally {
  latencies: number[] | null;
  groups: { latencies: number[]; non2xx: number }[];
}

const pick = <T>(xs: readonly T[]): T => xs[Math.floor(Math.random() * xs.length)]!;

/** The next request: the single one of `o`, or one drawn from its mix by group weight. */
function planner(o: LoadOptions, path: string): () => Planned {
  if (!o.mix) {
    const one = { group: 0, method: o.method ?? "GET", path, headers: o.headers, body: o.body };
    return () => one;
  }
  // Requests with a body get their content type once, here, not per request.
  const mix: LoadGroup[] = o.mix.map((g) => ({
    ...g,
    requests: g.requests.map((r) =>
      r.bodies ? { ...r, headers: { ...r.headers, "content-type": "application/json" } } : r,
    ),
  }));
  // Cumulative weights: group i is drawn when a uniform draw falls below bounds[i] (and not an earlier one).
  const bounds: number[] = [];
  for (const g of mix) bounds.push((bounds.at(-1) ?? 0) + g.weight);
  const total = bounds.at(-1) ?? 0;
  return () => {
    const r = Math.random() * total;
    const group = Math.max(
      0,
      bounds.findIndex((b) => r < b),
    );
    const req = pick(mix[group]!.requests);
    return {
      group,
      method: req.method,
      path: req.path,
      headers: req.headers,
      body: req.bodies ? pick(req.bodies) : undefined,
    };
  };
}

async function drive(pool: Pool, o: LoadOptions, next: () => Planned, ms: number, tally: Tally) {
  let errors = 0;
  let non2xx = 0;
  const end = performance.now() + ms;
  const loop = async () => {
    while (performance.now() < end) {
      const req = next();
      const start = performance.now();
      try {
        const res = await pool.request({
          path: req.path,
          method: req.method as "GET",
          headers: req.headers,
          body: req.body,
        });
        await res.body.dump();
        const ms = performance.now() - start;
        const bad = res.statusCode < 200 || res.statusCode > 299;
        if (bad) non2xx++;
        if (tally.latencies) {
          tally.latencies.push(ms);
          tally.groups[req.group]!.latencies.push(ms);
          if (bad) tally.groups[req.group]!.non2xx++;
        }
      } catch {
        errors++;
      }
    }
  };
  await Promise.all(Array.from({ length: o.connections }, loop));
  return { errors, non2xx };
}

const percentile = (sorted: Float64Array, p: number) =>
  sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))]! : 0;
const sortedOf = (xs: number[]) => Float64Array.from(xs).sort();

process.once("message", async (message) => {
  const o = message as LoadOptions;
  try {
    const url = new URL(o.url);
    const pool = new Pool(url.origin, { connections: o.connections, pipelining: 1 });
    const next = planner(o, url.pathname + url.search);
    const groups = () => (o.mix ?? [{ name: "all" }]).map(() => ({ latencies: [] as number[], non2xx: 0 }));
    if (o.warmupMs) await drive(pool, o, next, o.warmupMs, { latencies: null, groups: groups() });
    const tally: Tally = { latencies: [], groups: groups() };
    const started = performance.now();
    const cpu = process.cpuUsage();
    const { errors, non2xx } = await drive(pool, o, next, o.durationMs, tally);
    const seconds = (performance.now() - started) / 1000;
    const used = process.cpuUsage(cpu);
    await pool.close();
    const sorted = sortedOf(tally.latencies!);
    const result: LoadResult = {
      rps: sorted.length / seconds,
      p50Ms: percentile(sorted, 0.5),
      p99Ms: percentile(sorted, 0.99),
      errors,
      non2xx,
      requests: sorted.length,
      generatorCpu: (used.user + used.system) / 1e6 / seconds,
      ...(o.mix && {
        groups: o.mix.map((g, i) => ({
          name: g.name,
          requests: tally.groups[i]!.latencies.length,
          p99Ms: percentile(sortedOf(tally.groups[i]!.latencies), 0.99),
          non2xx: tally.groups[i]!.non2xx,
        })),
      }),
    };
    process.send!({ result }, () => process.exit(0));
  } catch (err) {
    process.send!({ error: String(err) }, () => process.exit(1));
  }
});
