import type { RouteSpec } from "@flowstate/contracts/rest/route";
import { Pool } from "undici";

export type ServiceName = RouteSpec["service"];

export interface UpstreamOptions {
  /** Sockets kept per service; at least the expected concurrency, or requests queue in the pool. */
  connections: number;
  /** Longest wait for a service's answer headers / between body chunks. */
  timeoutMs: number;
}

/**
 * One keep-alive undici Pool per service, created at boot from the configured base URLs. A
 * service without a URL (not deployed yet) has no pool, and its routes answer 503.
 *
 * @example
 * const upstreams = new Upstreams({ "identity-svc": "http://127.0.0.1:8081" }, { connections: 128, timeoutMs: 30_000 });
 * upstreams.pool("identity-svc")?.request({ method: "GET", path: "/healthz" });
 */
export class Upstreams {
  readonly #pools = new Map<ServiceName, Pool>();

  constructor(urls: Partial<Record<ServiceName, string | undefined>>, options: UpstreamOptions) {
    for (const [service, url] of Object.entries(urls) as [ServiceName, string | undefined][]) {
      if (!url) continue;
      const origin = new URL(url);
      if (origin.pathname !== "/" || origin.search)
        throw new Error(`${service} URL must be an origin without a path: ${url}`);
      this.#pools.set(
        service,
        new Pool(origin.origin, {
          connections: options.connections,
          // One request per socket at a time: a pipelined request waits behind a slow answer on the
          // same socket (head-of-line blocking), and a failed socket would take several requests with it.
          pipelining: 1,
          headersTimeout: options.timeoutMs,
          bodyTimeout: options.timeoutMs,
          keepAliveTimeout: 30_000,
        }),
      );
    }
  }

  pool(service: ServiceName): Pool | undefined {
    return this.#pools.get(service);
  }

  async close(): Promise<void> {
    await Promise.all([...this.#pools.values()].map((p) => p.close()));
  }
}
