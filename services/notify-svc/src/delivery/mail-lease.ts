import type { NotifyDeps } from "../deps.ts";

/** How long a claimed e-mail (an offer change's result, a disabled-endpoint notice) is leased. */
export const MAIL_LEASE_SECONDS = 60;

/**
 * The longest one SES send may take, the SDK's retries included: half the lease, so a send made
 * under a lease renewed just before it (renewMailLease) ends before another worker may take the
 * mail again. Past it the send is abandoned and the mail retried (at least once).
 */
export const SES_SEND_TIMEOUT_MS = (MAIL_LEASE_SECONDS * 1000) / 2;

/**
 * Renews a claimed mail's lease just before its send, if the claim is still this worker's: a
 * claim is known by the attempt count it set. A batch's mails are sent one after another, each
 * after an identity-svc lookup, so a slow batch can outlive the lease it was claimed with; another
 * worker then claims the mail again (one more attempt) and sends it, and this worker, which finds
 * the count moved, leaves it (it used to send it a second time).
 *
 * @example
 * if (!(await renewMailLease(deps, { table, key: "event_id", id, attempts, unsent: "done_at" }))) continue;
 */
export async function renewMailLease(
  deps: Pick<NotifyDeps, "orm">,
  o: { table: string; key: "event_id" | "id"; id: string; attempts: number; unsent: "done_at" | "sent_at" },
): Promise<boolean> {
  const rows = await deps.orm.em.fork().execute<{ id: string }[]>(
    `UPDATE ${o.table} SET next_attempt_at = now() + make_interval(secs => ?)
      WHERE ${o.key} = ? AND attempts = ? AND ${o.unsent} IS NULL RETURNING ${o.key} AS id`,
    [MAIL_LEASE_SECONDS, o.id, o.attempts],
  );
  return rows.length === 1;
}
