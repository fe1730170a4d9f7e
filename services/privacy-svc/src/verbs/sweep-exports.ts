import { DeleteObjectCommand } from "@aws-sdk/client-s3";
import { archiveKey } from "../archive/build-archive.ts";
import { ownCall } from "../call.ts";
import type { PrivacyDeps } from "../deps.ts";
import { TIMED_OUT_REASON } from "./failure-reasons.ts";

const BATCH = 100;

/**
 * The sweeper (a timer in main.ts; tests call it directly). The 7-day limit is enforced by
 * getExport from the row; this makes the bucket match: archives past `expires_at` are deleted and
 * their jobs marked `expired`, and jobs still queued or running past JOB_DEADLINE_MINUTES (a
 * message stuck in the DLQ, a crashed build) fail with a reason so the user can ask again, and
 * whatever they may have written is deleted. The bucket's 7-day lifecycle rule is only the
 * backstop. Rows are claimed FOR UPDATE SKIP LOCKED, so replicas share the work and a build in
 * progress (it holds its row) is never touched.
 */
export async function sweepExports(deps: PrivacyDeps): Promise<{ expired: number; timedOut: number }> {
  const call = ownCall(deps);
  const jobs = call.table("export_job");
  const remove = (key: string) => deps.s3.send(new DeleteObjectCommand({ Bucket: deps.exports.bucket, Key: key }));
  let expired = 0;
  let timedOut = 0;
  for (;;) {
    const n = await call.transaction(async (em) => {
      const now = deps.clock();
      const rows = await em.execute<{ id: string; file_key: string | null }[]>(
        `SELECT id, file_key FROM ${jobs} WHERE status = 'ready' AND expires_at <= ?
          ORDER BY expires_at LIMIT ${BATCH} FOR UPDATE SKIP LOCKED`,
        [now],
      );
      for (const r of rows) await remove(r.file_key ?? archiveKey(r.id));
      if (rows.length)
        await em.execute(
          `UPDATE ${jobs} SET status = 'expired', file_key = NULL WHERE id IN (SELECT jsonb_array_elements_text(?::jsonb))`,
          [JSON.stringify(rows.map((r) => r.id))],
        );
      return rows.length;
    });
    expired += n;
    if (n < BATCH) break;
  }
  for (;;) {
    const n = await call.transaction(async (em) => {
      const now = deps.clock();
      const rows = await em.execute<{ id: string; sub: string }[]>(
        `SELECT id, sub FROM ${jobs} WHERE status IN ('queued', 'running') AND requested_at <= ?
          ORDER BY requested_at LIMIT ${BATCH} FOR UPDATE SKIP LOCKED`,
        [new Date(now.getTime() - deps.limits.jobDeadlineMs)],
      );
      for (const r of rows) {
        await remove(archiveKey(r.id));
        await em.execute(
          `UPDATE ${jobs} SET status = 'failed', completed_at = ?, failure_code = 'timed_out', failure_reason = ? WHERE id = ?`,
          [now, TIMED_OUT_REASON, r.id],
        );
        call.emit(em, "ExportFailed.v1", { job_id: r.id, sub: r.sub, reason: "timed_out" }, { subject: r.sub });
      }
      return rows.length;
    });
    timedOut += n;
    if (n < BATCH) break;
  }
  if (expired || timedOut) deps.logger.info({ expired, timed_out: timedOut }, "export sweep");
  return { expired, timedOut };
}
