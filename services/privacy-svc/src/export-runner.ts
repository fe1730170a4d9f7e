import { ownCall } from "./call.ts";
import type { PrivacyDeps } from "./deps.ts";
import { runExport } from "./verbs/run-export.ts";

/**
 * The fast path of an export: the job is built in this process right after the POST commits,
 * instead of only after ExportRequested has gone through the outbox relay, EventBridge and the
 * queue (on the local stack that trip is most of the wait: the bench measured p50 3.0 s without
 * this, most of it the event hop on a loaded machine). The event path stays the durable one: its
 * handler finds the job already ready (or waits on the row lock for a build in progress, then
 * finds it done) and does nothing; a build that dies with the process is simply redone from the
 * queue. The other way round, a job the handler is already building is skipped here, never waited
 * for (runExport's "skip"). At most `concurrency` builds run here at once, each holding one connection; beyond that
 * the queue takes the job.
 */
export function startExportRunner(deps: PrivacyDeps, concurrency = 2) {
  const running = new Set<Promise<void>>();
  let stopped = false;
  return {
    kick(jobId: string): void {
      if (stopped || running.size >= concurrency) return;
      const build = ownCall(deps)
        .transaction((em) => runExport(deps, em, jobId, undefined, "skip"))
        .catch((err) => deps.logger.warn({ err, job_id: jobId }, "in-process export failed; the queue retries it"))
        .finally(() => running.delete(build));
      running.add(build);
    },
    /** Waits for the builds in progress (the queue redoes any that a hard stop cuts off). */
    async stop(): Promise<void> {
      stopped = true;
      await Promise.allSettled([...running]);
    },
  };
}
