/**
 * (a) The platform app factory's cost: `GET /healthz` on createServiceApp + serve (request id,
 * request log line, metrics, body limit, error mapping) against Hono's bare hello world, both on
 * @hono/node-server in their own processes, measured alternately in the same run so machine noise
 * hits both alike. Target (issue 2): at least 70% of bare Hono's requests per second.
 */
import type { BenchRow } from "./lib/types.ts";
import { measureHttp } from "./lib/load.ts";
import { startServerProcess } from "./lib/servers.ts";

const CONNECTIONS = 32;
const ROUNDS = 3;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

export default async function healthz(): Promise<BenchRow[]> {
  const bare = await startServerProcess(new URL("./lib/servers/bare-hono.ts", import.meta.url));
  const app = await startServerProcess(new URL("./lib/servers/service-app.ts", import.meta.url));
  try {
    const rps: Record<"bare" | "app", number[]> = { bare: [], app: [] };
    for (let round = 0; round < ROUNDS; round++) {
      for (const [kind, server] of [["bare", bare], ["app", app]] as const) {
        const r = await measureHttp({
          url: `${server.url}/healthz`,
          connections: CONNECTIONS,
          durationMs: 3000,
          warmupMs: round === 0 ? 1500 : 300,
        });
        if (r.errors || r.non2xx) throw new Error(`${kind}: ${r.errors} errors, ${r.non2xx} non-2xx responses`);
        rps[kind].push(r.rps);
      }
    }
    const value = median(rps.app);
    const baseline = median(rps.bare);
    const ratio = value / baseline;
    return [
      {
        name: `createServiceApp GET /healthz (${CONNECTIONS} conns, median of ${ROUNDS})`,
        value: Math.round(value),
        unit: "req/s",
        baseline: { name: "bare Hono hello world", value: Math.round(baseline) },
        ratio,
        target: ">= 70% of bare Hono",
        met: ratio >= 0.7,
      },
    ];
  } finally {
    await Promise.all([bare.stop(), app.stop()]);
  }
}
