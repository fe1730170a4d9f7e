import type { Logger } from "@flowstate/shared/log/logger";
import type { IdentityLookups } from "../auth/identity-client.ts";
import type { InvalidationLog } from "../cache/invalidation-log.ts";

export interface DoorLeaseOptions {
  /** `<door>-<random>`, one per process (contracts DoorInstanceId). */
  instanceId: string;
  /** Where identity-svc reaches this instance's push route (the internal listener). */
  pushUrl: string;
  /** How often the lease is renewed; identity-svc's lease lasts several of these. */
  renewMs: number;
  identity: Pick<IdentityLookups, "renewLease" | "leaveLease">;
  log: InvalidationLog;
  logger: Logger;
}

/**
 * This door instance's lease with identity-svc (ADR 0011): while it is valid, identity-svc pushes
 * every invalidation here before the revoking call answers, so the caches may be trusted; while it
 * is not, nothing cached is (`admit` drops every cached fact before each request reads one).
 *
 * The lease runs `lease_ms` from when the renewal was SENT, on this process's monotonic clock:
 * identity-svc wrote its row later than that, so its row outlives this instance's own view, and
 * identity-svc waits out the row of an instance it had to evict. Every cached fact is also dropped
 * when the lease is regained after a gap, and when identity-svc says it registered this instance
 * afresh (it had been evicted): pushes made meanwhile did not reach it.
 *
 * @example
 * const lease = new DoorLease({ instanceId, pushUrl, renewMs: 1_000, identity, log, logger });
 * await lease.start();
 * lease.admit(); // before a request reads the caches
 */
export class DoorLease {
  readonly #o: DoorLeaseOptions;
  #until = 0;
  #timer: NodeJS.Timeout | undefined;
  #stopped = false;
  #inflight: Promise<void> | undefined;
  #renewals = 0;
  #failures = 0;

  constructor(options: DoorLeaseOptions) {
    this.#o = options;
  }

  /** Whether cached facts may be trusted now. */
  valid(now = performance.now()): boolean {
    return now < this.#until;
  }

  /** Before a request reads cached facts: while the lease is not valid, none may be trusted. */
  admit(): void {
    if (performance.now() >= this.#until) this.#o.log.markAll();
  }

  /** The first renewal (awaited, so a healthy instance serves from its caches at once), then one every renewMs. */
  async start(): Promise<void> {
    await this.#tick();
  }

  get stats() {
    return { renewals: this.#renewals, failures: this.#failures };
  }

  #tick = (): Promise<void> => {
    this.#inflight = this.#renew();
    return this.#inflight;
  };

  #renew = async (): Promise<void> => {
    const sentAt = performance.now();
    try {
      const lease = await this.#o.identity.renewLease(this.#o.instanceId, this.#o.pushUrl);
      this.#renewals++;
      if (this.#stopped) return;
      const lapsed = performance.now() >= this.#until;
      if (lease.registered || lapsed) {
        this.#o.log.markAll();
        if (this.#until > 0)
          this.#o.logger.warn(
            { registered: lease.registered },
            "door lease regained after a gap: dropped every cached access fact",
          );
      }
      this.#until = sentAt + lease.lease_ms;
    } catch (err) {
      this.#failures++;
      if (this.valid()) this.#o.logger.warn({ err }, "door lease not renewed; caches trusted until it runs out");
    }
    if (!this.#stopped) this.#timer = setTimeout(this.#tick, Math.max(0, sentAt + this.#o.renewMs - performance.now()));
  };

  /** Shutdown: stop trusting the caches, then deregister so pushes stop waiting for this instance. */
  async stop(): Promise<void> {
    this.#stopped = true;
    clearTimeout(this.#timer);
    this.#until = 0;
    // A renewal still in flight would write the row again after the deregistration.
    await this.#inflight;
    await this.#o.identity
      .leaveLease(this.#o.instanceId)
      .catch((err: unknown) => this.#o.logger.warn({ err }, "door lease not ended; it runs out by itself"));
  }
}
