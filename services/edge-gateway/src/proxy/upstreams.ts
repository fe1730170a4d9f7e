import type { RouteSpec } from "@flowstate/contracts/rest/route";
import { Pool } from "undici";
import { type BreakerState, CircuitBreaker } from "./circuit-breaker.ts";

export type ServiceName = RouteSpec["service"];

export interface UpstreamOptions {
  /** Sockets kept per service; at least the expected concurrency, or requests queue in the pool. */
  connections: number;
  /** Relayed requests: longest wait for a service's answer headers / between body chunks. */
  timeoutMs: number;
  /** Lookups, probes and connecting: the gateway's own short calls (see identity-client.ts). */
  lookupTimeoutMs: number;
  /** Consecutive calls without an answer that open a service's circuit breaker. */
  breakerFailures: number;
  /** While a breaker is open, how often its service is probed (GET /healthz). */
  breakerProbeMs: number;
  onBreakerChange?: ((service: ServiceName, state: BreakerState, cause?: unknown) => void) | undefined;
}

export interface Upstream {
  name: ServiceName;
  pool: Pool;
  breaker: CircuitBreaker;
  /** The gateway's own short-call deadline (LOOKUP_TIMEOUT_MS). */
  lookupTimeoutMs: number;
}

/**
 * One keep-alive undici Pool and one circuit breaker per service, created at boot from the
 * configured base URLs. A service without a URL (not deployed yet) has neither, and its routes
 * answer 503 SERVICE_UNAVAILABLE. Relayed requests wait at most `timeoutMs` for an answer; the
 * gateway's own lookups, probes and every connection attempt at most `lookupTimeoutMs`.
 *
 * @example
 * const upstreams = new Upstreams({ "identity-svc": "http://127.0.0.1:8081" }, options);
 * upstreams.get("identity-svc")?.breaker.admit();
 */
export class Upstreams {
  readonly #upstreams = new Map<ServiceName, Upstream>();

  constructor(urls: Partial<Record<ServiceName, string | undefined>>, options: UpstreamOptions) {
    for (const [service, url] of Object.entries(urls) as [ServiceName, string | undefined][]) {
      if (!url) continue;
      const origin = new URL(url);
      if (origin.pathname !== "/" || origin.search)
        throw new Error(`${service} URL must be an origin without a path: ${url}`);
      const pool = new Pool(origin.origin, {
        connections: options.connections,
        // One request per socket at a time: a pipelined request waits behind a slow answer on the
        // same socket (head-of-line blocking), and a failed socket would take several requests with it.
        pipelining: 1,
        headersTimeout: options.timeoutMs,
        bodyTimeout: options.timeoutMs,
        // On a private network a connection takes milliseconds; an unreachable host must not hold a
        // request for undici's default 10 s.
        connectTimeout: options.lookupTimeoutMs,
        keepAliveTimeout: 30_000,
      });
      const breaker = new CircuitBreaker({
        name: service,
        failureThreshold: options.breakerFailures,
        probeIntervalMs: options.breakerProbeMs,
        // Any answer shows the service responsive again (what the breaker counts); readiness wants a 2xx.
        probe: async () => void (await probeHealth(pool, options.lookupTimeoutMs)),
        onChange: (state, cause) => options.onBreakerChange?.(service, state, cause),
      });
      this.#upstreams.set(service, { name: service, pool, breaker, lookupTimeoutMs: options.lookupTimeoutMs });
    }
  }

  get(service: ServiceName): Upstream | undefined {
    return this.#upstreams.get(service);
  }

  all(): Upstream[] {
    return [...this.#upstreams.values()];
  }

  /**
   * Readiness: refused at once while the service's breaker is open, else its /healthz within the
   * lookup timeout (the outcome counts towards the breaker, as any call's does).
   */
  async check(service: ServiceName): Promise<void> {
    const upstream = this.#upstreams.get(service);
    if (upstream === undefined) throw new Error(`${service} is not configured`);
    upstream.breaker.admit();
    let status: number;
    try {
      status = await probeHealth(upstream.pool, upstream.lookupTimeoutMs);
    } catch (err) {
      upstream.breaker.failed(err);
      throw err;
    }
    upstream.breaker.succeeded();
    if (status < 200 || status > 299) throw new Error(`${service} /healthz answered ${status}`);
  }

  async close(): Promise<void> {
    for (const u of this.#upstreams.values()) u.breaker.stop();
    await Promise.all([...this.#upstreams.values()].map((u) => u.pool.close()));
  }
}

/** GET /healthz's status, or a rejection when no answer came within `timeoutMs` (queueing in the pool included). */
async function probeHealth(pool: Pool, timeoutMs: number): Promise<number> {
  const answer = await pool.request({
    method: "GET",
    path: "/healthz",
    headersTimeout: timeoutMs,
    bodyTimeout: timeoutMs,
    signal: AbortSignal.timeout(timeoutMs),
  });
  await answer.body.dump();
  return answer.statusCode;
}
