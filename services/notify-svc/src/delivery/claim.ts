import { qualifiedTable } from "@flowstate/shared/seam/table";
import type { NotifyDeps } from "../deps.ts";

/** A claimed delivery with what its attempt needs. */
export interface Due {
  id: string;
  tenant_id: string;
  endpoint_id: string;
  message_id: string;
  attempts: number;
  body: string;
  kind: "webhook" | "slack";
  url: string;
  secret: string | null;
  previous_secret: string | null;
  /** timestamptz as raw queries answer it (text). */
  previous_valid_until: string | null;
}

/**
 * Claims up to `limit` due deliveries for one round: each row is leased (`locked_until`) for
 * longer than an attempt can take, so another replica, or this one's next round, skips it while
 * it is in flight, and takes it again if this process dies mid-attempt (at-least-once; the
 * receiver dedupes by `webhook-id`).
 */
export async function claimDue(deps: NotifyDeps, limit: number): Promise<Due[]> {
  const [d, m, e] = ["delivery", "message", "endpoint"].map((t) => qualifiedTable(deps.schema, t));
  const leaseSeconds = Math.ceil((deps.delivery.timeoutMs * 2 + 5_000) / 1000);
  return deps.orm.em.fork().execute<Due[]>(
    `WITH due AS (
       SELECT id FROM ${d}
        WHERE status = 'pending' AND next_attempt_at <= now() AND (locked_until IS NULL OR locked_until < now())
        ORDER BY next_attempt_at LIMIT ? FOR UPDATE SKIP LOCKED
     ), leased AS (
       UPDATE ${d} SET locked_until = now() + make_interval(secs => ?) FROM due WHERE ${d}.id = due.id
       RETURNING ${d}.*
     )
     SELECT l.id, l.tenant_id, l.endpoint_id, l.message_id, l.attempts, m.body,
            e.kind, e.url, e.secret, e.previous_secret, e.previous_valid_until
       FROM leased l JOIN ${m} m ON m.id = l.message_id JOIN ${e} e ON e.id = l.endpoint_id`,
    [limit, leaseSeconds],
  );
}
