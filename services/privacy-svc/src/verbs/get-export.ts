import type { ExportJob } from "@flowstate/contracts/rest/privacy/exports";
import { DomainError, notFound } from "@flowstate/shared/errors/domain-error";
import type { PrivacyCall } from "../call.ts";
import { findJob, type JobRow } from "../db/jobs.ts";
import { presignDownload } from "../storage/presign.ts";

/** The user behind the call: both routes are `auth: user`, so the seam admitted nothing else. */
export function signedInUser(call: PrivacyCall): string {
  if (call.caller.kind !== "user") throw new Error("a privacy route was reached without a user");
  return call.caller.sub;
}

const iso = (d: Date | null) => (d ? d.toISOString() : null);

/** A cancelled job (account deletion) is never shown to its owner, who can no longer sign in. */
const visibleStatus = (s: JobRow["status"]): ExportJob["status"] => (s === "cancelled" ? "failed" : s);

/**
 * The status of one of the caller's export jobs. Another user's job and an unknown id are the
 * same 404. From `expires_at` (7 days after the file was written) the answer is 410
 * EXPORT_EXPIRED with no URL, decided here from the row, whatever the bucket still holds: S3
 * lifecycle deletion may lag by days (privacy-reliability.md §6). While ready, every call presigns
 * a new URL.
 */
export async function getExport({ call, jobId }: { call: PrivacyCall; jobId: string }): Promise<ExportJob> {
  const sub = signedInUser(call);
  const job = await findJob(call.deps.orm.em.fork(), call.deps.schema, { id: jobId, sub });
  if (!job) throw notFound("export");
  const now = call.deps.clock();
  if (job.status === "expired" || (job.expires_at && now.getTime() >= job.expires_at.getTime())) {
    throw new DomainError(
      "gone",
      "EXPORT_EXPIRED",
      "this export's file was deleted 7 days after it was written; request a new export",
    );
  }
  const body: ExportJob = {
    job_id: job.id,
    status: visibleStatus(job.status),
    requested_at: job.requested_at.toISOString(),
    completed_at: iso(job.completed_at),
    expires_at: iso(job.expires_at),
  };
  if (job.status === "ready" && job.file_key) {
    const { url, expiresAt } = await presignDownload(call.deps, job.file_key, job.requested_at);
    body.download_url = url;
    body.download_url_expires_at = expiresAt.toISOString();
  }
  if (body.status === "failed") body.failure_reason = job.failure_reason ?? "the export could not be completed";
  return body;
}
