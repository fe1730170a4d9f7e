import { qualifiedTable } from "@flowstate/shared/seam/table";
import type { EntityManager } from "@mikro-orm/postgresql";

export type JobStatus = "queued" | "running" | "ready" | "failed" | "expired" | "cancelled";

/** An export_job row as the verbs read it (timestamps as Date). */
export interface JobRow {
  id: string;
  sub: string;
  status: JobStatus;
  requested_at: Date;
  started_at: Date | null;
  completed_at: Date | null;
  attempts: number;
  file_key: string | null;
  file_written_at: Date | null;
  expires_at: Date | null;
  failure_code: string | null;
  failure_reason: string | null;
  erased_at: Date | null;
}

const dates = ["requested_at", "started_at", "completed_at", "file_written_at", "expires_at", "erased_at"] as const;

/** pg hands timestamptz back as Date already; this also accepts strings (a JSON path) to be safe. */
export function toJob(raw: Record<string, unknown>): JobRow {
  const row = { ...raw } as Record<string, unknown>;
  for (const k of dates) if (row[k] != null && !(row[k] instanceof Date)) row[k] = new Date(row[k] as string);
  return row as unknown as JobRow;
}

/** Row locks findJob can take; "claim" skips a row another transaction holds (no row comes back). */
const LOCKS = { update: "FOR UPDATE", share: "FOR SHARE", claim: "FOR UPDATE SKIP LOCKED" } as const;

/** One job, optionally locked FOR UPDATE (inside the caller's transaction). */
export async function findJob(
  em: EntityManager,
  schema: string,
  where: { id: string; sub?: string },
  lock?: keyof typeof LOCKS,
): Promise<JobRow | undefined> {
  const [row] = await em.execute<Record<string, unknown>[]>(
    `SELECT * FROM ${qualifiedTable(schema, "export_job")} WHERE id = ? ${where.sub ? "AND sub = ?" : ""}
      ${lock ? LOCKS[lock] : ""}`,
    where.sub ? [where.id, where.sub] : [where.id],
  );
  return row ? toJob(row) : undefined;
}

/** Sets columns of one job; `expect` guards the transition (no row changes when the status moved on). */
export async function updateJob(
  em: EntityManager,
  schema: string,
  id: string,
  set: Partial<Omit<JobRow, "id" | "sub">>,
  expect?: JobStatus[],
): Promise<boolean> {
  const keys = Object.keys(set) as (keyof typeof set)[];
  const params: unknown[] = [...keys.map((k) => set[k] ?? null), id];
  let guard = "";
  if (expect) {
    guard = " AND status IN (SELECT jsonb_array_elements_text(?::jsonb))";
    params.push(JSON.stringify(expect));
  }
  const res = await em.execute<{ affectedRows?: number }>(
    `UPDATE ${qualifiedTable(schema, "export_job")} SET ${keys.map((k) => `${k} = ?`).join(", ")} WHERE id = ?${guard}`,
    params,
    "run",
  );
  return (res.affectedRows ?? 0) > 0;
}
