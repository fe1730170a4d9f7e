import { DomainError } from "@flowstate/shared/errors/domain-error";

/** 503 UPSTREAM_UNAVAILABLE: a service did not answer, or its breaker is open (the cause is logged, never echoed). */
export const upstreamUnavailable = (cause?: unknown, retryAfter = 1) =>
  new DomainError(
    "unavailable",
    "UPSTREAM_UNAVAILABLE",
    "the service behind this route is unavailable; retry shortly",
    {
      retryAfter,
      cause,
    },
  );

export type BreakerState = "closed" | "open" | "half-open";

export interface BreakerOptions {
  /** The upstream's name, for messages and logs. */
  name: string;
  /** Consecutive failures (no answer within the timeout, connection refused or reset) that open it. */
  failureThreshold: number;
  /** While open, the wait before each probe: the longest a recovered upstream stays refused. */
  probeIntervalMs: number;
  /** One trial call (GET /healthz within the lookup timeout); resolves when the upstream answered. */
  probe: () => Promise<void>;
  /** Told about every change of state (logged and counted by the caller). */
  onChange?: ((state: BreakerState, cause?: unknown) => void) | undefined;
  now?: () => number;
}

/**
 * A circuit breaker for one upstream. Closed: every call goes through and consecutive failures
 * are counted (any answer, whatever its status, resets the count: the upstream is responsive).
 * At `failureThreshold` it opens: calls are refused at once with 503 UPSTREAM_UNAVAILABLE and a
 * `Retry-After` of the time to the next probe, instead of each waiting out the timeout. Every
 * `probeIntervalMs` it goes half-open and makes one trial call of its own (calls are still refused
 * meanwhile, so a stalled upstream never holds a client's request); an answer closes it, a failure
 * opens it again. It therefore recovers by itself, with or without traffic. An answer to a call
 * admitted before it opened also closes it: the upstream demonstrably answers again.
 *
 * @example
 * const breaker = new CircuitBreaker({ name: "identity-svc", failureThreshold: 5, probeIntervalMs: 1000, probe });
 * breaker.admit(); // throws the 503 while open
 * pool.request(…).then(() => breaker.succeeded(), (err) => { breaker.failed(err); throw err; });
 */
export class CircuitBreaker {
  readonly #o: BreakerOptions;
  readonly #now: () => number;
  #state: BreakerState = "closed";
  #failures = 0;
  #nextProbeAt = 0;
  #timer: NodeJS.Timeout | undefined;
  #closed = false;

  constructor(options: BreakerOptions) {
    this.#o = options;
    this.#now = options.now ?? Date.now;
  }

  get state(): BreakerState {
    return this.#state;
  }

  /** Seconds a refused client should wait: until the next probe, at least 1. */
  retryAfterSeconds(): number {
    return Math.max(1, Math.ceil((this.#nextProbeAt - this.#now()) / 1000));
  }

  /** Throws 503 UPSTREAM_UNAVAILABLE (with Retry-After) unless the breaker is closed. Synchronous: on the hot path. */
  admit(): void {
    if (this.#state !== "closed") throw this.unavailable();
  }

  /** The 503 to answer for this upstream now (Retry-After: until the next probe while open, else 1 s). */
  unavailable(cause?: unknown): DomainError {
    return upstreamUnavailable(cause, this.retryAfterSeconds());
  }

  succeeded(): void {
    this.#failures = 0;
    if (this.#state !== "closed") this.#close();
  }

  failed(cause?: unknown): void {
    if (this.#state !== "closed") return;
    this.#failures += 1;
    if (this.#failures >= this.#o.failureThreshold) this.#open(cause);
  }

  /** Stops probing (the gateway is shutting down). */
  stop(): void {
    this.#closed = true;
    clearTimeout(this.#timer);
  }

  #open(cause?: unknown): void {
    this.#state = "open";
    this.#nextProbeAt = this.#now() + this.#o.probeIntervalMs;
    this.#o.onChange?.("open", cause);
    clearTimeout(this.#timer);
    if (this.#closed) return;
    this.#timer = setTimeout(() => void this.#probe(), this.#o.probeIntervalMs);
    this.#timer.unref();
  }

  #close(): void {
    clearTimeout(this.#timer);
    this.#state = "closed";
    this.#failures = 0;
    this.#o.onChange?.("closed");
  }

  async #probe(): Promise<void> {
    if (this.#state !== "open" || this.#closed) return;
    this.#state = "half-open";
    this.#o.onChange?.("half-open");
    try {
      await this.#o.probe();
    } catch (err) {
      if (this.#state === "half-open") this.#open(err);
      return;
    }
    if (this.#state === "half-open") this.#close();
  }
}
