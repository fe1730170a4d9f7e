import { DomainError } from "@flowstate/shared/errors/domain-error";
import type { MetricsRegistry } from "@flowstate/shared/http/metrics";
import { qualifiedTable } from "@flowstate/shared/seam/table";
import type { OffersDeps } from "../deps.ts";
import { errorDelaySeconds } from "./backoff.ts";
import { type ClaimedChange, claimDue, msUntilNextDue } from "./claim.ts";
import { pollChange } from "./poll-change.ts";
import { resubmit } from "./resubmit.ts";

export interface Tracker {
  /** A change set was submitted: look for due work now rather than at the next idle tick. */
  wake(): void;
  /** Stops the loop; the poll in progress finishes first. */
  stop(): Promise<void>;
}

export interface TrackerOptions {
  /** Longest sleep when nothing is due (default 1000 ms). */
  idleMs?: number;
  /** Change sets taken per round (default 10). */
  batch?: number;
  metrics?: MetricsRegistry;
}

/**
 * The change-set tracker: every change set in `submitting`, `preparing` or `applying` is polled
 * with DescribeChangeSet when due (claim.ts, backoff.ts) until AWS reports its end
 * (poll-change.ts). A tenant found without a connector has its change sets left alone
 * (`untracked_reason`) until it connects again (consumers/handlers.ts). Its state is the offer_change table, so starting a tracker after a restart
 * simply resumes: nothing is kept in memory but the timer.
 */
export function startTracker(deps: OffersDeps, options: TrackerOptions = {}): Tracker {
  const idleMs = options.idleMs ?? 1000;
  const batch = options.batch ?? 10;
  const log = deps.logger.child({ component: "change-set-tracker" });
  let running = true;
  let timer: NodeJS.Timeout | undefined;
  let wakeUp: (() => void) | undefined;
  options.metrics?.gauge("offer_changes_in_flight", "Change sets submitted and not yet ended", async () => {
    const [row] = await deps.orm.em.fork().execute<{ n: string }[]>(
      `SELECT count(*) AS n FROM ${qualifiedTable(deps.schema, "offer_change")}
          WHERE status IN ('submitting', 'preparing', 'applying') AND untracked_reason IS NULL`,
    );
    return Number(row?.n ?? 0);
  });

  async function handle(row: ClaimedChange): Promise<void> {
    try {
      if (row.status === "submitting") await resubmit(deps, row);
      else await pollChange(deps, row);
    } catch (err) {
      if (err instanceof DomainError && err.code === "CONNECTOR_NOT_CONNECTED") {
        // Nothing can reach the seller's account any more: stop, until ConnectorConnected resumes it.
        log.info({ change: row.id, tenant_id: row.tenant_id }, "change set untracked: tenant disconnected");
        await deps.orm.em
          .fork()
          .execute(
            `UPDATE ${qualifiedTable(deps.schema, "offer_change")} SET untracked_reason = 'disconnected' WHERE id = ?`,
            [row.id],
          );
        return;
      }
      // Throttling, an outage: try again later, slower each time.
      log.warn({ err, change: row.id, tenant_id: row.tenant_id }, "change set poll failed");
      await deps.orm.em.fork().execute(
        `UPDATE ${qualifiedTable(deps.schema, "offer_change")}
            SET poll_errors = poll_errors + 1, next_poll_at = now() + make_interval(secs => ?)
          WHERE id = ?`,
        [errorDelaySeconds(row.poll_errors), row.id],
      );
    }
  }

  async function round(): Promise<number> {
    const due = await claimDue(deps, batch);
    await Promise.all(due.map(handle));
    return due.length;
  }

  const loop = (async () => {
    while (running) {
      let sleep = idleMs;
      try {
        if ((await round()) === batch) sleep = 0;
        else sleep = Math.min(idleMs, (await msUntilNextDue(deps)) ?? idleMs);
      } catch (err) {
        log.error({ err }, "tracker round failed");
      }
      if (!running) break;
      await new Promise<void>((resolve) => {
        wakeUp = resolve;
        timer = setTimeout(resolve, Math.max(sleep, 20));
      });
    }
  })();

  return {
    wake() {
      if (timer) clearTimeout(timer);
      wakeUp?.();
    },
    async stop() {
      running = false;
      if (timer) clearTimeout(timer);
      wakeUp?.();
      await loop;
    },
  };
}
