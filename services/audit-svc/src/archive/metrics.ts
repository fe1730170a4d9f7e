import type { Database } from "@flowstate/shared/db/open-database";
import type { MetricsRegistry } from "@flowstate/shared/http/metrics";

/**
 * What is not archived yet, over both audit tables: rows above the last batch's `last_row_id`, and
 * the age of the oldest of them by the database's clock. Reads the primary keys' ranges only.
 */
export async function archiveBacklog(orm: Database, schema: string): Promise<{ rows: number; ageSeconds: number }> {
  const s = `"${schema}"`;
  const [row] = await orm.em.fork().execute<{ rows: string; age: number | null }[]>(
    `WITH done AS (SELECT coalesce(max(last_row_id), 0) AS id FROM ${s}.audit_archive_batch),
          pending AS (
            SELECT recorded_at AS at FROM ${s}.audit_event WHERE id > (SELECT id FROM done)
            UNION ALL
            SELECT imported_at FROM ${s}.audit_event_legacy WHERE id > (SELECT id FROM done))
     SELECT count(*)::text AS rows, extract(epoch FROM now() - min(at))::float8 AS age FROM pending`,
  );
  return { rows: Number(row?.rows ?? 0), ageSeconds: Math.max(0, row?.age ?? 0) };
}

/**
 * The archive's gauges on /metrics. An archive that stops (an ArchiveConflict, a bucket that
 * refuses writes) shows as a lag that only grows: alert on it, as on an outbox backlog (the
 * reference's GitLab ghost-user migration lag gauge is the pattern).
 *
 * @example
 * registerArchiveMetrics(metrics, { orm, schema });
 */
export function registerArchiveMetrics(metrics: MetricsRegistry, deps: { orm: Database; schema: string }): void {
  metrics.gauge(
    "audit_archive_pending_rows",
    "Audit rows not yet in a confirmed archive object",
    async () => (await archiveBacklog(deps.orm, deps.schema)).rows,
  );
  metrics.gauge(
    "audit_archive_lag_seconds",
    "Age of the oldest audit row not yet in a confirmed archive object (0 when none)",
    async () => (await archiveBacklog(deps.orm, deps.schema)).ageSeconds,
  );
}
