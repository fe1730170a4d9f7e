import { every } from "@flowstate/shared/jobs/every";
import type { AuditDeps } from "../deps.ts";
import { type ArchiverDeps, archiveRound, type RoundResult } from "./archive-round.ts";
import { deleteArchivedRows } from "./retention.ts";

/**
 * One tick of the archive's periodic work: archive every row up to the horizon, then delete the
 * archived rows older than the retention window. Retention runs after archiving, so a row leaves
 * the live table only once a batch covers it (the database checks that too).
 */
export async function archiveAndRetain(deps: ArchiverDeps & { retentionDays: number }): Promise<RoundResult | "busy"> {
  const round = await archiveRound(deps);
  const deleted = await deleteArchivedRows({ orm: deps.orm, schema: deps.schema, windowDays: deps.retentionDays });
  if (deleted > 0) {
    deps.logger.info({ deleted, window_days: deps.retentionDays }, "archived audit rows past retention deleted");
  }
  return round;
}

/**
 * Starts the archive on audit-svc's deps, every `deps.archive.intervalMs` (shared/src/jobs/every.ts:
 * never two ticks at once in a process, a failure logged and retried at the next tick; replicas
 * are kept apart by the round's advisory lock).
 *
 * @example
 * const archiver = startArchiver(deps);
 * onShutdown.push(() => archiver.stop());
 */
export function startArchiver(deps: AuditDeps): { stop(): Promise<void> } {
  const a = deps.archive;
  const archiver = {
    orm: deps.orm,
    schema: deps.schema,
    s3: deps.s3,
    logger: deps.logger,
    bucket: a.bucket,
    batchMaxRows: a.batchMaxRows,
    retentionDays: a.retentionDays,
  };
  return every(a.intervalMs, () => archiveAndRetain(archiver), { logger: deps.logger, what: "audit archiving" });
}
