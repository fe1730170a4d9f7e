import { every } from "@flowstate/shared/jobs/every";
import type { OffersDeps } from "../deps.ts";
import { backfillWatches } from "./backfill.ts";
import { claimDueWatches } from "./claim.ts";
import { pollTenant } from "./poll-tenant.ts";

export interface WatchOptions {
  /** How often due tenants are looked for (default: a tenth of the interval, at most 1 s). */
  tickMs?: number;
  /** Tenants polled per tick, concurrently (default 10). */
  batch?: number;
  /** How long after a failed backfill (connector-svc not answering yet) it is tried again (default 5 s). */
  backfillRetryMs?: number;
}

/**
 * The agreement watch: each watched tenant (watch/forget-watch.ts) is polled with one
 * SearchAgreements page per interval (claim.ts), what is new or changed recorded with its events
 * (record-page.ts). Its state is the agreement_watch table, so a restart simply resumes. Once per
 * start it enrolls the connected tenants it has no row for (backfill.ts), retried until connector-svc
 * answers; the polls of tenants already watched do not wait for it.
 */
export function startAgreementWatch(deps: OffersDeps, options: WatchOptions = {}): { stop(): Promise<void> } {
  const tickMs = options.tickMs ?? Math.min(1000, Math.max(20, deps.agreementWatchIntervalMs / 10));
  const batch = options.batch ?? 10;
  const logger = deps.logger.child({ component: "agreement-watch" });
  const retryMs = options.backfillRetryMs ?? 5000;
  let backfill: "pending" | "running" | "done" = "pending";
  let backfillAt = 0;
  let inflight: Promise<void> | undefined;
  const runBackfill = () => {
    backfill = "running";
    inflight = backfillWatches(deps).then(
      (enrolled) => {
        backfill = "done";
        if (enrolled) logger.info({ enrolled }, "agreement watch: connected tenants enrolled");
      },
      (err: unknown) => {
        backfill = "pending";
        backfillAt = Date.now() + retryMs;
        logger.warn({ err }, "agreement watch backfill failed; will retry");
      },
    );
  };
  const loop = every(
    tickMs,
    async () => {
      if (backfill === "pending" && Date.now() >= backfillAt) runBackfill();
      for (;;) {
        const due = await claimDueWatches(deps, batch);
        await Promise.all(due.map((w) => pollTenant(deps, w)));
        if (due.length < batch) return;
      }
    },
    { logger, what: "agreement watch round" },
  );
  return {
    async stop() {
      await loop.stop();
      await inflight;
    },
  };
}
