import { every } from "@flowstate/shared/jobs/every";
import { type ArchiverDeps, archiveRound } from "./archive-round.ts";
import { deleteArchivedRows } from "./retention.ts";

/**
 * The archive's periodic work (shared/src/jobs/every.ts: never two rounds at once in a process, a
 * failure logged and retried next tick): archive every row up to the horizon, then delete the
 * archived rows older than the retention window. Retention runs after archiving in the same round,
 * so a row leaves the live table only once a batch covers it (the database checks that too).
 *
 * @example
 * const archiver = startArchiver({ ...deps, intervalMs: 60_000, retentionDays: 400 });
 * onShutdown.push(() => archiver.stop());
 */
export function startArchiver(deps: ArchiverDeps & { intervalMs: number; retentionDays: number }): {
  stop(): Promise<void>;
} {
  return every(
    deps.intervalMs,
    async () => {
      const round = await archiveRound(deps);
      const deleted = await deleteArchivedRows({ orm: deps.orm, schema: deps.schema, windowDays: deps.retentionDays });
      if (deleted > 0)
        deps.logger.info({ deleted, window_days: deps.retentionDays }, "archived audit rows past retention deleted");
      return round;
    },
    { logger: deps.logger, what: "audit archiving" },
  );
}
