import { qualifiedTable } from "@flowstate/shared/seam/table";
import type { EntityManager } from "@mikro-orm/postgresql";
import { buildArchive } from "../archive/build-archive.ts";
import { ownCall } from "../call.ts";
import { findJob, updateJob } from "../db/jobs.ts";
import { EXPORT_RETENTION_MS, type PrivacyDeps } from "../deps.ts";
import { AccountGone, GatheringError } from "../gathering/errors.ts";
import { ACCOUNT_DELETED_REASON, participantFailureReason } from "./failure-reasons.ts";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Builds one export (the ExportRequested handler; `em` is the consumer's transaction, which also
 * records the event id). The job row stays locked FOR UPDATE while the archive is built, so an
 * account deletion that arrives meanwhile waits and then finds the final state (and deletes the
 * file). A participant that is down is retried with backoff until GATHER_DEADLINE_SECONDS, then the
 * job fails with a reason; a partial archive is never written (the upload is aborted). An account
 * the owner reports gone cancels the job. Other failures (S3, the database) throw: the message is
 * redelivered, and the sweeper fails a job that stays unfinished past JOB_DEADLINE_MINUTES.
 */
export async function runExport(
  deps: PrivacyDeps,
  em: EntityManager,
  jobId: string,
  trace?: string | undefined,
  /**
   * "wait" (the queue's handler, the durable path): wait for a build in progress elsewhere, then
   * find it done. "skip" (the in-process fast path): return at once if another build holds the job.
   */
  busy: "wait" | "skip" = "wait",
): Promise<void> {
  // Committed on its own at once, so polls show `running` while the archive is built. Never waits:
  // a row another build holds is skipped (that build has marked it), because waiting here would
  // hold a second pooled connection while this call's transaction holds the first, and a few
  // such waiters (the queue's handlers and the in-process builds of a burst of exports) exhausted
  // the pool: the builds, the polls and the handlers then all waited on each other for good.
  const table = qualifiedTable(deps.schema, "export_job");
  await deps.orm.em.fork().execute(
    `UPDATE ${table} SET status = 'running', started_at = ?, attempts = attempts + 1
      WHERE id = (SELECT id FROM ${table} WHERE id = ? AND status IN ('queued', 'running') FOR UPDATE SKIP LOCKED)`,
    [deps.clock(), jobId],
  );
  // The handler waits on the row with the one connection of its transaction; the fast path skips it.
  const job = await findJob(em, deps.schema, { id: jobId }, busy === "wait" ? "update" : "claim");
  if (!job || (job.status !== "queued" && job.status !== "running")) return; // cancelled, done, or being built
  const log = deps.logger.child({ job_id: job.id });
  const call = ownCall(deps, trace);
  const meta = { subject: job.sub };
  const deadline = Date.now() + deps.limits.gatherDeadlineMs;
  for (let delay = 250; ; delay = Math.min(delay * 2, 5_000)) {
    const attempt = new AbortController();
    try {
      const { key, counts } = await buildArchive(deps, em, job, attempt.signal);
      const written = deps.clock();
      const expires = new Date(written.getTime() + EXPORT_RETENTION_MS);
      await updateJob(em, deps.schema, job.id, {
        status: "ready",
        completed_at: written,
        file_key: key,
        file_written_at: written,
        expires_at: expires,
        failure_code: null,
        failure_reason: null,
      });
      call.emit(em, "ExportCompleted.v1", { job_id: job.id, sub: job.sub, expires_at: expires.toISOString() }, meta);
      log.info({ counts }, "export ready");
      return;
    } catch (err) {
      attempt.abort();
      if (err instanceof AccountGone) {
        await updateJob(em, deps.schema, job.id, {
          status: "cancelled",
          completed_at: deps.clock(),
          failure_code: "account_deleted",
          failure_reason: ACCOUNT_DELETED_REASON,
        });
        call.emit(em, "ExportFailed.v1", { job_id: job.id, sub: job.sub, reason: "account_deleted" }, meta);
        log.info("export cancelled: the account is gone");
        return;
      }
      if (!(err instanceof GatheringError)) throw err;
      if (Date.now() + delay < deadline) {
        log.warn({ err, retry_in_ms: delay }, "gathering failed; retrying");
        await sleep(delay);
        continue;
      }
      await updateJob(em, deps.schema, job.id, {
        status: "failed",
        completed_at: deps.clock(),
        failure_code: "participant_unavailable",
        failure_reason: participantFailureReason(err.service),
      });
      call.emit(em, "ExportFailed.v1", { job_id: job.id, sub: job.sub, reason: "participant_unavailable" }, meta);
      log.warn({ err }, "export failed: a participant did not answer in time");
      return;
    }
  }
}
