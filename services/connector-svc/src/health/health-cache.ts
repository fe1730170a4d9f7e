import type { HealthReport } from "@flowstate/contracts/rest/connector/diagnosis";

/**
 * Health answers per tenant, reused for `ttlMs` and shared by concurrent requests, so a page that
 * polls health never turns into calls against the seller's account (each check is up to three
 * AssumeRole and four Marketplace calls). Keyed by role ARN too: a reconnect elsewhere is checked anew.
 */
export class HealthCache {
  readonly #ttlMs: number;
  readonly #max: number;
  readonly #entries = new Map<string, { roleArn: string; at: number; report: Promise<HealthReport> }>();

  constructor(ttlMs: number, max = 10_000) {
    this.#ttlMs = ttlMs;
    this.#max = max;
  }

  get(tenantId: string, roleArn: string, check: () => Promise<HealthReport>, now = Date.now()): Promise<HealthReport> {
    const hit = this.#entries.get(tenantId);
    if (hit && hit.roleArn === roleArn && now - hit.at < this.#ttlMs) return hit.report;
    const report = check();
    const entry = { roleArn, at: now, report };
    this.#entries.delete(tenantId);
    this.#entries.set(tenantId, entry);
    if (this.#entries.size > this.#max) this.#entries.delete(this.#entries.keys().next().value as string);
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
