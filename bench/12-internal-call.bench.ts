/**
 * The caller's CPU for one call between Flowstate processes (identity-svc's push to a door, a write's
 * credential re-check, the connector lookup): `internalCall` (shared/src/http/internal-call.ts, on
 * undici's `request`) against `fetch`, which those calls used until session 14. The same bare Hono
 * server in its own process answers both; calls are sequential, as a push or a re-check is, and
 * the two clients alternate rounds so machine noise hits both alike. Figure: this process's CPU
 * (process.cpuUsage) per call, the server's excluded. Calibration: no target.
 */
import { internalCall } from "@flowstate/shared/http/internal-call";
import { median } from "./lib/median.ts";
import { startServerProcess } from "./lib/servers.ts";
import type { BenchRow } from "./lib/types.ts";

const CALLS = 2_000;
const ROUNDS = 5;

type Client = (url: string) => Promise<number>;

const clients: Record<"fetch" | "internalCall", Client> = {
  async fetch(url) {
    const res = await fetch(url, { signal: AbortSignal.timeout(1_000) });
    await res.arrayBuffer();
    return res.status;
  },
  async internalCall(url) {
    const res = await internalCall(url, { timeoutMs: 1_000 });
    await res.discard();
    return res.status;
  },
};

/** This process's CPU µs per call over CALLS sequential calls. */
async function cpuPerCall(client: Client, url: string): Promise<number> {
  const before = process.cpuUsage();
  for (let i = 0; i < CALLS; i++) {
    const status = await client(url);
    if (status !== 200) throw new Error(`${url} answered ${status}`);
  }
  const used = process.cpuUsage(before);
  return (used.user + used.system) / CALLS;
}

export default async function internalCallBench(): Promise<BenchRow[]> {
  const server = await startServerProcess(new URL("./lib/servers/bare-hono.ts", import.meta.url));
  try {
    const url = `${server.url}/healthz`;
    const figures = { fetch: [] as number[], internalCall: [] as number[] };
    for (const name of ["fetch", "internalCall"] as const) await cpuPerCall(clients[name], url); // warm-up
    for (let round = 0; round < ROUNDS; round++)
      for (const name of round % 2 ? (["internalCall", "fetch"] as const) : (["fetch", "internalCall"] as const))
        figures[name].push(await cpuPerCall(clients[name], url));
    const viaFetch = Math.round(median(figures.fetch));
    const viaInternal = Math.round(median(figures.internalCall));
    const calls = `${CALLS} sequential GETs to a bare Hono process, median of ${ROUNDS} rounds`;
    return [
      { name: `caller's CPU per internal call: fetch (${calls})`, value: viaFetch, unit: "µs CPU/call" },
      {
        name: `caller's CPU per internal call: internalCall, undici request (${calls})`,
        value: viaInternal,
        unit: "µs CPU/call",
        baseline: { name: "fetch, same run", value: viaFetch },
        ratio: viaInternal / viaFetch,
      },
    ];
  } finally {
    await server.stop();
  }
}
