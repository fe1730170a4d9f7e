import { DeleteObjectCommand } from "@aws-sdk/client-s3";
import type { EntityManager } from "@mikro-orm/postgresql";
import { archiveKey } from "../archive/build-archive.ts";
import { ownCall } from "../call.ts";
import { type JobRow, toJob } from "../db/jobs.ts";
import type { PrivacyDeps } from "../deps.ts";
import { ACCOUNT_DELETED_REASON } from "./failure-reasons.ts";

/**
 * privacy-svc's part of an account deletion (the AccountDeleted handler; `em` is the consumer's
 * transaction). Locking the user's jobs FOR UPDATE waits for an export being built, so its archive
 * is seen and deleted too. Then: queued and running jobs are cancelled, every archive is deleted,
 * and each row is reduced to the bookkeeping the erasure section allows (id, sub, status,
 * requested, completed, erased); the failure text and the object key go. The send log is kept
 * (README, "Account deletion"). Deleting an object twice is harmless, so a redelivery is too.
 *
 * This is the last of an account deletion's effects to land (identity-svc revokes and erases in the
 * deletion's own transaction; this reaction follows the event), so its log line carries the
 * deletion lag: seconds from AccountDeleted's `occurred_at` (identity-svc's transaction) to now,
 * `erasure_lag_seconds`. deploy/aws turns that field into the `AccountErasureLag` metric and alarms
 * on it (§7 check 7); a redelivery logs it again, with the larger lag, which the alarm should see.
 */
export async function eraseExports(
  deps: PrivacyDeps,
  em: EntityManager,
  sub: string,
  deletedAt: Date,
): Promise<number> {
  const jobs = ownCall(deps).table("export_job");
  const rows = (
    await em.execute<Record<string, unknown>[]>(`SELECT * FROM ${jobs} WHERE sub = ? ORDER BY id FOR UPDATE`, [sub])
  ).map(toJob) as JobRow[];
  // Any job that may have written its archive: a running build that died may have left one too.
  const withFiles = rows.filter((r) => r.file_key || r.status === "ready" || r.status === "running");
  for (const r of withFiles) {
    await deps.s3.send(new DeleteObjectCommand({ Bucket: deps.exports.bucket, Key: r.file_key ?? archiveKey(r.id) }));
  }
  await em.execute(
    `UPDATE ${jobs}
        SET status = CASE WHEN status IN ('queued', 'running') THEN 'cancelled'
                          WHEN status = 'ready' THEN 'expired' ELSE status END,
            failure_code = CASE WHEN status IN ('queued', 'running') THEN 'account_deleted' ELSE failure_code END,
            failure_reason = CASE WHEN status IN ('queued', 'running') THEN ? ELSE NULL END,
            completed_at = COALESCE(completed_at, ?),
            file_key = NULL, started_at = NULL, erased_at = ?
      WHERE sub = ?`,
    [ACCOUNT_DELETED_REASON, deps.clock(), deps.clock(), sub],
  );
  const lag = (deps.clock().getTime() - deletedAt.getTime()) / 1000;
  deps.logger.info(
    { sub, jobs: rows.length, files: withFiles.length, erasure_lag_seconds: lag },
    "exports erased after account deletion",
  );
  return withFiles.length;
}
