import type { EntityManager } from "@mikro-orm/postgresql";
import { LegacyAuditRow } from "./legacy-row.ts";

export interface ImportReport {
  imported: number;
  /** Rows already imported (same legacy id). */
  duplicates: number;
  /** Lines refused, by line number and reason; never the line itself (it holds e-mail addresses). */
  rejected: { line: number; reason: string }[];
}

/**
 * Imports the old audit log's rows into `audit_event_legacy`, the distinct shape that names people
 * by e-mail. Runs as the schema's owner: the service's role cannot write that table, so nothing
 * the consumer does can produce the shape. Each row takes the writers' shared lock (migration
 * 0002) like the consumer's, so the archive's horizon stays behind it; a bad line is reported and
 * skipped, the rest go in, one transaction per line.
 */
export async function importLegacy(
  em: EntityManager,
  schema: string,
  lines: AsyncIterable<string> | Iterable<string>,
): Promise<ImportReport> {
  const report: ImportReport = { imported: 0, duplicates: 0, rejected: [] };
  const s = `"${schema}"`;
  let n = 0;
  for await (const line of lines) {
    n++;
    if (!line.trim()) continue;
    let raw: unknown;
    try {
      raw = JSON.parse(line);
    } catch {
      report.rejected.push({ line: n, reason: "not JSON" });
      continue;
    }
    const parsed = LegacyAuditRow.safeParse(raw);
    if (!parsed.success) {
      const fields = [...new Set(parsed.error.issues.map((i) => i.path.join(".") || "(row)"))];
      report.rejected.push({ line: n, reason: `invalid ${fields.join(", ")}` });
      continue;
    }
    const r = parsed.data;
    const res = await em.fork().transactional((tx) =>
      tx.execute<{ affectedRows?: number }>(
        `INSERT INTO ${s}.audit_event_legacy (id, legacy_id, event_type, occurred_at, tenant_id,
           actor_email, target_email, actor_sub, target_sub)
         SELECT nextval('${s}.audit_row_id'), ?, ?, ?, ?, ?, ?, ?, ?
           FROM (SELECT pg_advisory_xact_lock_shared(k[1], k[2]) FROM ${s}.audit_row_lock_key() AS k) AS held
         ON CONFLICT (legacy_id) DO NOTHING`,
        [
          r.id,
          r.type,
          r.occurred_at,
          r.tenant_id ?? null,
          r.actor_email ?? null,
          r.target_email ?? null,
          r.actor_sub ?? null,
          r.target_sub ?? null,
        ],
        "run",
      ),
    );
    if (res.affectedRows) report.imported++;
    else report.duplicates++;
  }
  return report;
}
