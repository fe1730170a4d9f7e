import type { EntityManager } from "@mikro-orm/postgresql";
import { idList } from "../db/prepared-read.ts";
import type { SqlRunner } from "../db/prepared-transaction.ts";

export interface ClaimedRow {
  id: string;
  event_key: string;
  envelope: Record<string, unknown> & { source: string; type: string };
  attempts: number;
}

/**
 * Locks up to `limit` due, unsent rows for the current transaction. SKIP LOCKED makes several relay
 * instances share the backlog instead of queueing behind each other: each takes rows nobody else
 * holds, and rows held by a relay that dies are unlocked when its connection drops (so they are
 * re-published: at-least-once, absorbed by the consumers' processed-event check).
 */
export function claimBatch(tx: SqlRunner, schema: string, limit: number): Promise<ClaimedRow[]> {
  return tx.execute<ClaimedRow>(
    `SELECT id, event_key, envelope, attempts FROM "${schema}".outbox_event
      WHERE sent_at IS NULL AND failed_at IS NULL AND next_attempt_at <= now()
      ORDER BY seq LIMIT ? FOR UPDATE SKIP LOCKED`,
    [limit],
  );
}

export async function markSent(tx: SqlRunner, schema: string, ids: string[]): Promise<void> {
  if (!ids.length) return;
  // Lists travel as one JSON parameter (prepared-read.ts `idList` says why).
  await tx.execute(
    `UPDATE "${schema}".outbox_event SET sent_at = now(), last_error = NULL
      WHERE id IN (SELECT jsonb_array_elements_text(?::jsonb))`,
    [idList(ids)],
  );
}

/**
 * Schedules another attempt with capped exponential backoff and jitter: 0.5 s · 2^attempts, at most
 * `maxBackoffMs`, times a random 50–100 % so rows that failed together do not retry in lockstep.
 * The error text is ours or AWS's error code, never the payload.
 */
export async function markFailed(
  tx: SqlRunner,
  schema: string,
  failures: { id: string; error: string }[],
  maxBackoffMs: number,
): Promise<void> {
  if (!failures.length) return;
  await tx.execute(
    `UPDATE "${schema}".outbox_event AS o
        SET attempts = o.attempts + 1,
            last_error = f.error,
            next_attempt_at = now() + least(?::float8, 500 * power(2, o.attempts)) * (0.5 + random() / 2) * interval '1 millisecond'
       FROM jsonb_to_recordset(?::jsonb) AS f(id text, error text)
      WHERE o.id = f.id`,
    [maxBackoffMs, JSON.stringify(failures.map((f) => ({ id: f.id, error: f.error.slice(0, 500) })))],
  );
}

/**
 * Ends a row's life without publishing it: PutEvents can never accept it (it is larger than an
 * entry may be), so retrying would only repeat the refusal forever. `failed_at` takes it out of
 * the claim and the backlog; the row is kept (never pruned) for whoever investigates. The error
 * is ours (a reason and the size), never the payload.
 */
export async function markUndeliverable(
  tx: SqlRunner,
  schema: string,
  failures: { id: string; error: string }[],
): Promise<void> {
  if (!failures.length) return;
  await tx.execute(
    `UPDATE "${schema}".outbox_event AS o SET failed_at = now(), last_error = f.error
       FROM jsonb_to_recordset(?::jsonb) AS f(id text, error text)
      WHERE o.id = f.id`,
    [JSON.stringify(failures.map((f) => ({ id: f.id, error: f.error.slice(0, 500) })))],
  );
}

export interface Backlog {
  /** Rows neither sent nor failed (due or backing off). */
  pending: number;
  /** Seconds since the oldest of them was committed (database clock); 0 when none is pending. */
  oldestPendingAgeSeconds: number;
}

/**
 * Pending rows and the age of the oldest, in one statement over the pending index: the
 * `outbox_backlog` gauge reads `pending`, the lag metric (lag-metric.ts) both. Age, not count, is
 * what an alarm wants: a busy service may hold hundreds of rows for a second, a stuck one a single
 * row for an hour. Ages come from `now()` and `created_at`, both the database's clock, so a task's
 * skewed clock cannot fake a lag.
 */
export async function readBacklog(em: EntityManager, schema: string): Promise<Backlog> {
  const [row] = await em.execute<{ n: string; age: string | null }[]>(
    `SELECT count(*) AS n, extract(epoch FROM now() - min(created_at)) AS age
       FROM "${schema}".outbox_event WHERE sent_at IS NULL AND failed_at IS NULL`,
  );
  return { pending: Number(row?.n ?? 0), oldestPendingAgeSeconds: Math.max(Number(row?.age ?? 0), 0) };
}

/** Rows that will never be published (`markUndeliverable`): the outbox_failed gauge. */
export async function countFailed(em: EntityManager, schema: string): Promise<number> {
  const [row] = await em.execute<{ n: string }[]>(
    `SELECT count(*) AS n FROM "${schema}".outbox_event WHERE failed_at IS NOT NULL`,
  );
  return Number(row?.n ?? 0);
}

/** Deletes rows sent before `olderThanMs` ago, at most `limit` per call (keeps each delete short). */
export async function pruneSent(em: EntityManager, schema: string, olderThanMs: number, limit = 1000): Promise<number> {
  const res = await em.execute<{ affectedRows?: number }>(
    `DELETE FROM "${schema}".outbox_event WHERE id IN (
       SELECT id FROM "${schema}".outbox_event
        WHERE sent_at IS NOT NULL AND sent_at < now() - ? * interval '1 millisecond' LIMIT ?)`,
    [olderThanMs, limit],
    "run",
  );
  return res.affectedRows ?? 0;
}
