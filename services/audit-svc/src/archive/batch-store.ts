import type { EntityManager } from "@mikro-orm/postgresql";
import { type ArchiveManifest, type ArchiveRow, GENESIS_HASH } from "./format.ts";

/**
 * The archive's side of audit's schema (src/db/migrations.ts): `audit_archive_batch` rows, the
 * horizon function and the rows themselves, read as the service's insert-only role. Every query
 * names the schema: the service's connection has no search_path of its own.
 */
export interface ArchiveHead {
  /** The next batch's sequence number. */
  nextSeq: number;
  /** The last archived row id ("0" before the first batch): the next batch starts above it. */
  afterId: string;
  /** The last batch's manifest hash, GENESIS_HASH before the first. */
  prevManifestSha256: string;
}

export async function archiveHead(em: EntityManager, schema: string): Promise<ArchiveHead> {
  const [row] = await em.execute<{ seq: string; last_row_id: string; manifest_sha256: string | null }[]>(
    // `b.seq`, qualified: a bare `seq` sorts by the output column `seq::text`, where "9" comes after
    // "10" (archiving then stopped at the tenth batch, computing seq 10 again on every round).
    `SELECT b.seq::text, b.last_row_id::text, b.manifest_sha256 FROM "${schema}".audit_archive_batch b ORDER BY b.seq DESC LIMIT 1`,
  );
  if (!row) return { nextSeq: 1, afterId: "0", prevManifestSha256: GENESIS_HASH };
  if (!row.manifest_sha256) throw new Error(`archive batch ${row.seq} has no manifest hash: the chain cannot continue`);
  return { nextSeq: Number(row.seq) + 1, afterId: row.last_row_id, prevManifestSha256: row.manifest_sha256 };
}

/**
 * The id at or below which every audit row is committed or rolled back for good
 * (`audit_archive_horizon()`), in a transaction of its own: the function takes the exclusive side
 * of the writers' advisory lock and holds it until that transaction ends, so it must end at once.
 * While it waits for a writer in flight, new writers queue behind it (PostgreSQL grants locks in
 * order), so the wait is bounded: past `lockTimeoutMs` it gives up (55P03 lock_not_available),
 * the writers go on, and the round is retried at the next tick.
 */
export async function archiveHorizon(em: EntityManager, schema: string, lockTimeoutMs = 5000): Promise<string> {
  return em.transactional(async (tx) => {
    await tx.execute(`SET LOCAL lock_timeout = ${Math.max(1, Math.floor(lockTimeoutMs))}`);
    const [row] = await tx.execute<{ horizon: string }[]>(
      `SELECT "${schema}".audit_archive_horizon()::text AS horizon`,
    );
    return row!.horizon;
  });
}

export interface SourceRow extends ArchiveRow {
  /** When the row was written (recorded_at, imported_at for a legacy row): the day in the object key. */
  recordedAt: Date;
}

/**
 * Up to `limit` rows of both audit tables (one id sequence) with afterId < id <= upTo, in id order,
 * each as one JSON line: the row's columns (`to_jsonb`) plus `table`, which names its shape
 * (`audit_event`, or `audit_event_legacy` for the pre-2026-09-25 e-mail rows).
 *
 * The line must come out byte-identical when the batch is rebuilt after a crash: PostgreSQL writes
 * jsonb keys in a fixed order, and timestamps in the session time zone, which is pinned to UTC for
 * this transaction (JavaScript Dates would also drop the microseconds). `ORDER BY r.id`, qualified:
 * a bare `id` would sort by the output column `id::text`, putting 1000 before 999. The batch's ids
 * are picked first and only those rows are turned into JSON: with the projection under the sort,
 * every row up to the horizon went through to_jsonb for each batch whenever the planner chose a
 * sort over the primary key's order (no statistics yet after a burst): 340-550 ms per 1000-row batch
 * out of 15 000 rows, measured with EXPLAIN ANALYZE.
 */
export async function rowsAfter(
  em: EntityManager,
  schema: string,
  range: { afterId: string; upTo: string; limit: number },
): Promise<SourceRow[]> {
  const s = `"${schema}"`;
  const rows = await em.transactional(async (tx) => {
    await tx.execute("SET LOCAL TimeZone = 'UTC'");
    return tx.execute<{ id: string; at: Date; line: string }[]>(
      `WITH picked AS MATERIALIZED (
         SELECT id FROM (
           (SELECT id FROM ${s}.audit_event WHERE id > ?::bigint AND id <= ?::bigint ORDER BY id LIMIT ?)
           UNION ALL
           (SELECT id FROM ${s}.audit_event_legacy WHERE id > ?::bigint AND id <= ?::bigint ORDER BY id LIMIT ?)
         ) u ORDER BY id LIMIT ?
       )
       SELECT id::text, at, line FROM (
         SELECT e.id, e.recorded_at AS at, (jsonb_build_object('table', 'audit_event') || to_jsonb(e))::text AS line
           FROM ${s}.audit_event e JOIN picked p ON p.id = e.id
         UNION ALL
         SELECT l.id, l.imported_at, (jsonb_build_object('table', 'audit_event_legacy') || to_jsonb(l))::text
           FROM ${s}.audit_event_legacy l JOIN picked p ON p.id = l.id
       ) r ORDER BY r.id`,
      [range.afterId, range.upTo, range.limit, range.afterId, range.upTo, range.limit, range.limit],
    );
  });
  return rows.map((r) => ({ id: r.id, line: r.line, recordedAt: new Date(r.at) }));
}

/**
 * Marks a batch archived: one row in `audit_archive_batch`, written only after S3 confirmed the
 * object. The table's primary key (seq) and its exclusion constraint (no id range twice) make a
 * second mark of the same batch fail rather than count rows twice.
 */
export async function markArchived(em: EntityManager, schema: string, m: ArchiveManifest, manifestSha256: string) {
  await em.execute(
    `INSERT INTO "${schema}".audit_archive_batch
       (seq, object_key, first_row_id, last_row_id, row_count, content_sha256, manifest_sha256, previous_sha256)
     VALUES (?, ?, ?::bigint, ?::bigint, ?, ?, ?, ?)`,
    [m.seq, m.key, m.first_id, m.last_id, m.count, m.content_sha256, manifestSha256, m.prev_manifest_sha256],
  );
}

/** The key and manifest hash recorded for each archived batch, by sequence (for `verify`'s cross-check). */
export async function recordedBatches(
  em: EntityManager,
  schema: string,
): Promise<Map<number, { key: string; manifestSha256: string }>> {
  const rows = await em.execute<{ seq: string; object_key: string; manifest_sha256: string | null }[]>(
    `SELECT b.seq::text, b.object_key, b.manifest_sha256 FROM "${schema}".audit_archive_batch b ORDER BY b.seq`, // numeric order, as above
  );
  return new Map(rows.map((r) => [Number(r.seq), { key: r.object_key, manifestSha256: r.manifest_sha256 ?? "" }]));
}
