/**
 * The load generator behind `measureHttp` (load.ts), run in its own process: receives LoadOptions
 * over IPC, keeps `connections` requests in flight for the duration, answers with a LoadResult.
 */
import { Pool } from "undici";
import type { LoadOptions, LoadResult } from "./load.ts";

async function drive(pool: Pool, o: LoadOptions, path: string, ms: number, latencies: number[] | null) {
  let errors = 0;
  let non2xx = 0;
  const end = performance.now() + ms;
  const loop = async () => {
    while (performance.now() < end) {
      const start = performance.now();
      try {
        const res = await pool.request({
          path,
          method: (o.method ?? "GET") as "GET",
          headers: o.headers,
          body: o.body,
        });
        await res.body.dump();
        if (res.statusCode < 200 || res.statusCode > 299) non2xx++;
        latencies?.push(performance.now() - start);
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

process.once("message", async (message) => {
  const o = message as LoadOptions;
  try {
    const url = new URL(o.url);
    const pool = new Pool(url.origin, { connections: o.connections, pipelining: 1 });
    const path = url.pathname + url.search;
    if (o.warmupMs) await drive(pool, o, path, o.warmupMs, null);
    const latencies: number[] = [];
    const started = performance.now();
    const cpu = process.cpuUsage();
    const { errors, non2xx } = await drive(pool, o, path, o.durationMs, latencies);
    const seconds = (performance.now() - started) / 1000;
    const used = process.cpuUsage(cpu);
    await pool.close();
    const sorted = Float64Array.from(latencies).sort();
    const result: LoadResult = {
      rps: latencies.length / seconds,
      p50Ms: percentile(sorted, 0.5),
      p99Ms: percentile(sorted, 0.99),
      errors,
      non2xx,
      requests: latencies.length,
      generatorCpu: (used.user + used.system) / 1e6 / seconds,
    };
    process.send!({ result }, () => process.exit(0));
  } catch (err) {
    process.send!({ error: String(err) }, () => process.exit(1));
  }
});
