import { z } from "zod";
import { ExportJobId } from "../../ids.ts";
import { Timestamp } from "../identity/common.ts";

/**
 * A personal-data export job as its owner sees it (decisions.md, "Export status"). `ready` jobs
 * carry a fresh presigned download URL on every read; from 7 days after the file was written the
 * job answers 410 EXPORT_EXPIRED instead.
 */
export const ExportStatus = z.enum(["queued", "running", "ready", "failed", "expired"]);
export type ExportStatus = z.infer<typeof ExportStatus>;

export const ExportJobPath = z.object({ job_id: ExportJobId });
export type ExportJobPath = z.infer<typeof ExportJobPath>;

/** The answer to POST /v1/users/me/export (202, with `Location` pointing at the job). */
export const ExportStarted = z.object({ job_id: ExportJobId, status: ExportStatus });
export type ExportStarted = z.infer<typeof ExportStarted>;

export const ExportJob = z.object({
  job_id: ExportJobId,
  status: ExportStatus,
  requested_at: Timestamp,
  completed_at: Timestamp.nullable(),
  /** When the file stops being downloadable: 7 days after it was written (null until then). */
  expires_at: Timestamp.nullable(),
  /** Only while ready: a presigned GET, new on every call, valid a few minutes. */
  download_url: z.url().optional(),
  download_url_expires_at: Timestamp.optional(),
  /** Only when failed: why, in words a user understands. Asking again is allowed at once. */
  failure_reason: z.string().optional(),
});
export type ExportJob = z.infer<typeof ExportJob>;
