import { every } from "@flowstate/shared/jobs/every";
import type { OffersDeps } from "../deps.ts";
import { claimDueWatches } from "./claim.ts";
import { pollTenant } from "./poll-tenant.ts";

export interface WatchOptions {
  /** How often due tenants are looked for (default: a tenth of the interval, at most 1 s). */
  tickMs?: number;
  /** Tenants polled per tick, concurrently (default 10). */
  batch?: number;
}

/**
 * The agreement watch: each watched tenant (watch/forget-watch.ts) is polled with one
 * SearchAgreements page per interval (claim.ts), what is new or changed recorded with its events
 * (record-page.ts). Its state is the agreement_watch table, so a restart simply resumes.
 */
export function startAgreementWatch(deps: OffersDeps, options: WatchOptions = {}): { stop(): Promise<void> } {
  const tickMs = options.tickMs ?? Math.min(1000, Math.max(20, deps.agreementWatchIntervalMs / 10));
  const batch = options.batch ?? 10;
  return every(
    tickMs,
    async () => {
      for (;;) {
        const due = await claimDueWatches(deps, batch);
        await Promise.all(due.map((w) => pollTenant(deps, w)));
        if (due.length < batch) return;
      }
    },
    { logger: deps.logger.child({ component: "agreement-watch" }), what: "agreement watch round" },
  );
}
