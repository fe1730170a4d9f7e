/**
 * (a) The platform app factory's cost: `GET /healthz` on createServiceApp + serve (request id,
 * request log line, metrics, body limit, error mapping) against Hono's bare hello world, both on
 * @hono/node-server in their own processes, measured alternately in the same run so machine noise
 * hits both alike. Target (issue 2): at least 70% of bare Hono's requests per second.
 *
 * A second row gives the servers' CPU time per request, which a busy machine (other processes on
 * the two cores) distorts far less than req/s, and which still tells the servers apart when the
 * single-process load generator is the limit (on a quiet 2-core machine it tops out near 60k req/s,
 * below bare Hono's capacity): at equal CPU, 70% of the throughput is at most 1/0.7 ≈ 1.43 times
 * the CPU per request.
 */

import { measureHttp } from "./lib/load.ts";
import { median } from "./lib/median.ts";
import { type ServerProcess, startServerProcess } from "./lib/servers.ts";
import type { BenchRow } from "./lib/types.ts";

const CONNECTIONS = 32;
/** Issue 2's target: the app factory keeps this share of bare Hono's requests per second. */
const TARGET_SHARE = 0.7;
const ROUNDS = 5;

async function measure(server: ServerProcess, warmupMs: number) {
  const url = `${server.url}/healthz`;
  await measureHttp({ url, connections: CONNECTIONS, durationMs: warmupMs });
  const cpuBefore = await server.cpuMicros();
  const r = await measureHttp({ url, connections: CONNECTIONS, durationMs: 2000 });
  const cpu = (await server.cpuMicros()) - cpuBefore;
  if (r.errors || r.non2xx) throw new Error(`${url}: ${r.errors} errors, ${r.non2xx} non-2xx responses`);
  process.stderr.write(
    `  ${url}: ${Math.round(r.rps)} req/s, p99 ${r.p99Ms.toFixed(1)} ms, load generator CPU ${(r.generatorCpu * 100).toFixed(0)}%\n`,
  );
  return { rps: r.rps, cpuPerRequest: cpu / r.requests, generatorCpu: r.generatorCpu };
}

export default async function healthz(): Promise<BenchRow[]> {
  const bare = await startServerProcess(new URL("./lib/servers/bare-hono.ts", import.meta.url));
  const app = await startServerProcess(new URL("./lib/servers/service-app.ts", import.meta.url));
  try {
    const runs: Record<"bare" | "app", Awaited<ReturnType<typeof measure>>[]> = { bare: [], app: [] };
    for (let round = 0; round < ROUNDS; round++) {
      runs.bare.push(await measure(bare, round === 0 ? 1500 : 300));
      runs.app.push(await measure(app, round === 0 ? 1500 : 300));
    }
    const rps = { bare: median(runs.bare.map((r) => r.rps)), app: median(runs.app.map((r) => r.rps)) };
    const cpu = {
      bare: median(runs.bare.map((r) => r.cpuPerRequest)),
      app: median(runs.app.map((r) => r.cpuPerRequest)),
    };
    // A load generator near one full core caps both servers alike and flatters the ratio.
    const saturated =
      median(runs.bare.map((r) => r.generatorCpu)) > 0.9 ? ", load generator saturated: see CPU row" : "";
    return [
      {
        name: `createServiceApp GET /healthz (${CONNECTIONS} conns, median of ${ROUNDS}${saturated})`,
        value: Math.round(rps.app),
        unit: "req/s",
        baseline: { name: "bare Hono hello world", value: Math.round(rps.bare) },
        ratio: rps.app / rps.bare,
        target: `>= ${Math.round(TARGET_SHARE * 100)}% of bare Hono`,
        met: rps.app / rps.bare >= TARGET_SHARE,
      },
      {
        name: "createServiceApp server CPU per GET /healthz",
        value: cpu.app,
        unit: "µs CPU/req",
        baseline: { name: "bare Hono hello world", value: cpu.bare },
        ratio: cpu.app / cpu.bare,
        target: `<= ${Math.round(100 / TARGET_SHARE)}% of bare Hono`,
        met: cpu.app / cpu.bare <= 1 / TARGET_SHARE,
      },
    ];
  } finally {
    await Promise.all([bare.stop(), app.stop()]);
  }
}
