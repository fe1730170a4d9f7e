import type { HealthReport } from "@flowstate/contracts/rest/connector/diagnosis";
import { LruCache } from "@flowstate/shared/cache/lru";

/**
 * Health answers per tenant, reused for `ttlMs` and shared by concurrent requests, so a page that
 * polls health never turns into calls against the seller's account (each check is up to three
 * AssumeRole and four Marketplace calls). Keyed by role ARN too: a reconnect elsewhere is checked anew.
 */
export class HealthCache {
  readonly #ttlMs: number;
  readonly #entries: LruCache<{ roleArn: string; report: Promise<HealthReport> }>;

  constructor(ttlMs: number, max = 10_000) {
    this.#ttlMs = ttlMs;
    this.#entries = new LruCache(max);
  }

  get(tenantId: string, roleArn: string, check: () => Promise<HealthReport>, now = Date.now()): Promise<HealthReport> {
    const hit = this.#entries.get(tenantId, now);
    if (hit && hit.roleArn === roleArn) return hit.report;
    const report = check();
    const entry = { roleArn, report };
    this.#entries.set(tenantId, entry, now + this.#ttlMs);
    // A failed check (a bug, not an AWS answer: those are part of the report) is not reused.
    report.catch(() => {
      if (this.#entries.get(tenantId) === entry) this.#entries.delete(tenantId);
    });
    return report;
  }

  forget(tenantId: string): void {
    this.#entries.delete(tenantId);
  }
}
