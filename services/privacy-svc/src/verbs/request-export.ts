import type { ExportStarted } from "@flowstate/contracts/rest/privacy/exports";
import { DomainError } from "@flowstate/shared/errors/domain-error";
import { newId } from "@flowstate/shared/ids/new-id";
import type { PrivacyCall } from "../call.ts";
import type { JobStatus } from "../db/jobs.ts";
import { signedInUser } from "./get-export.ts";

/**
 * Starts a personal-data export, or hands back the one already under way.
 *
 * Per user the call serialises on a transaction-scoped advisory lock, so 20 concurrent POSTs end
 * with one job (the partial unique index makes a second active job impossible anyway). A new job
 * and its ExportRequested event commit together (outbox). Rate limit: one successful export per
 * EXPORT_MIN_INTERVAL_HOURS (24 by default, between Discourse's 1/day and Mastodon's 1/7 days);
 * failed or cancelled jobs do not count, so a user whose export failed can ask again at once.
 */
export async function requestExport({ call }: { call: PrivacyCall }): Promise<ExportStarted> {
  const sub = signedInUser(call);
  const { deps } = call;
  const jobs = call.table("export_job");
  // call.transaction re-checks the user's session first: a POST replayed after sign-out starts nothing.
  const started = await call.transaction(async (em) => {
    await em.execute("SELECT pg_advisory_xact_lock(hashtext('flowstate.privacy.export'), hashtext(?))", [sub]);
    const [active] = await em.execute<{ id: string; status: JobStatus }[]>(
      `SELECT id, status FROM ${jobs} WHERE sub = ? AND status IN ('queued', 'running')`,
      [sub],
    );
    if (active) return { job_id: active.id, status: active.status as ExportStarted["status"] };

    const now = deps.clock();
    const interval = deps.limits.minIntervalMs;
    if (interval > 0) {
      const [last] = await em.execute<{ id: string; status: JobStatus; requested_at: Date }[]>(
        `SELECT id, status, requested_at FROM ${jobs}
          WHERE sub = ? AND status IN ('ready', 'expired') ORDER BY requested_at DESC LIMIT 1`,
        [sub],
      );
      const wait = last ? new Date(last.requested_at).getTime() + interval - now.getTime() : 0;
      if (last && wait > 0) {
        throw new DomainError(
          "rate_limited",
          "EXPORT_RATE_LIMITED",
          `one export per ${Math.round(interval / 3600_000)} hours: ask again later, or download the last one`,
          {
            retryAfter: Math.ceil(wait / 1000),
            extensions: last.status === "ready" ? { job_id: last.id } : {},
          },
        );
      }
    }
    // Unguessable (~131 bits): the id is also the archive's object key. It is not a credential: every read checks the owner.
    const id = newId("exp");
    await em.execute(`INSERT INTO ${jobs} (id, sub, status, requested_at) VALUES (?, ?, 'queued', ?)`, [id, sub, now]);
    call.emit(em, "ExportRequested.v1", { job_id: id, sub }, { subject: sub });
    return { job_id: id, status: "queued" as const, created: true };
  });
  // Committed: build it now in this process; ExportRequested stays the durable path (export-runner.ts).
  if ("created" in started) {
    deps.runNow?.(started.job_id);
    return { job_id: started.job_id, status: started.status };
  }
  return started;
}
