import { fork } from "node:child_process";
import { fileURLToPath } from "node:url";

export interface LoadOptions {
  url: string;
  /** Concurrent keep-alive connections, each with one request in flight. */
  connections: number;
  durationMs: number;
  /** Load sent before measuring (connections opened, JIT warm), not counted. Default 0. */
  warmupMs?: number;
  method?: string;
  headers?: Record<string, string>;
  body?: string;
  /**
   * A mixed workload instead of one request: each request picks a group by weight, then one of
   * its requests at random (`url` then gives only the origin). Results are also reported per group.
   */
  mix?: LoadGroup[];
}

/** One kind of request in a mixed workload, e.g. "reads" with weight 9 and "writes" with weight 1. */
export interface LoadGroup {
  name: string;
  weight: number;
  requests: LoadRequest[];
}

export interface LoadRequest {
  method: string;
  path: string;
  headers?: Record<string, string>;
  /** Bodies to choose from at random per request (so a write can be a real change each time). */
  bodies?: string[];
}

export interface LoadResult {
  rps: number;
  p50Ms: number;
  p99Ms: number;
  /** Requests that failed at the transport (refused, reset, timed out). */
  errors: number;
  /** Responses outside 2xx. They still count in rps; check this before trusting a figure. */
  non2xx: number;
  requests: number;
  /**
   * CPU time of the load generator per second of wall time (1 = one core busy). Near 1, the
   * generator rather than the server may be the limit, and the rps figure understates the server.
   */
  generatorCpu: number;
  /** With `mix`: requests, p99 and non-2xx answers of each group. */
  groups?: { name: string; requests: number; p99Ms: number; non2xx: number }[];
}

const worker = fileURLToPath(new URL("./load-worker.ts", import.meta.url));

/**
 * Drives HTTP load at `url` from a separate Node process (undici Pool), so the load generator
 * never shares an event loop or a CPU figure with the server under test.
 *
 * @example
 * const r = await measureHttp({ url: `${base}/healthz`, connections: 32, durationMs: 3000, warmupMs: 1000 });
 * rows.push({ name: "GET /healthz", value: r.rps, unit: "req/s" });
 */
export function measureHttp(options: LoadOptions): Promise<LoadResult> {
  return new Promise((resolve, reject) => {
    const child = fork(worker, [], { stdio: ["ignore", "inherit", "inherit", "ipc"] });
    let result: LoadResult | undefined;
    child.once("message", (message) => {
      const m = message as { result?: LoadResult; error?: string };
      if (m.error) reject(new Error(`load generator: ${m.error}`));
      else result = m.result;
    });
    child.once("exit", (code) =>
      result ? resolve(result) : reject(new Error(`load generator exited (${code}) without a result`)),
    );
    child.send(options);
  });
}
