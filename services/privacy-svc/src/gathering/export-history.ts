import type { ExportedJob } from "@flowstate/contracts/internal/personal-data";
import { qualifiedTable } from "@flowstate/shared/seam/table";
import type { EntityManager } from "@mikro-orm/postgresql";
import { type JobRow, toJob } from "../db/jobs.ts";

const PAGE = 500;
const iso = (d: Date | null) => (d ? d.toISOString() : null);

/**
 * privacy-svc's own category: the user's earlier export requests, oldest first, read a page at a
 * time (keyset on requested_at, id) so a long history is streamed, never loaded whole. The job
 * being built is left out: it is not a previous request.
 */
export async function* exportHistory(
  em: EntityManager,
  schema: string,
  sub: string,
  currentJobId: string,
): AsyncGenerator<ExportedJob> {
  let after: [string, string] = ["-infinity", ""];
  for (;;) {
    const rows = (
      await em.execute<Record<string, unknown>[]>(
        `SELECT id, status, requested_at, requested_at::text AS cursor, completed_at, expires_at, failure_reason
           FROM ${qualifiedTable(schema, "export_job")}
          WHERE sub = ? AND id <> ? AND (requested_at, id) > (?::timestamptz, ?)
          ORDER BY requested_at, id LIMIT ${PAGE}`,
        [sub, currentJobId, ...after],
      )
    ).map(toJob) as (JobRow & { cursor: string })[];
    for (const r of rows) {
      yield {
        job_id: r.id,
        status: r.status,
        requested_at: r.requested_at.toISOString(),
        completed_at: iso(r.completed_at),
        expires_at: iso(r.expires_at),
        failure_reason: r.failure_reason,
      };
    }
    const last = rows.at(-1);
    if (rows.length < PAGE || !last) return;
    after = [last.cursor, last.id]; // PostgreSQL's text: microseconds a JS Date would lose
  }
}
