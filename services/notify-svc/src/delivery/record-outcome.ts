import { newId } from "@flowstate/shared/ids/new-id";
import { qualifiedTable } from "@flowstate/shared/seam/table";
import type { NotifyDeps } from "../deps.ts";
import { backoffMs } from "./backoff.ts";
import type { Due } from "./claim.ts";
import type { Attempt } from "./send.ts";

/**
 * Writes an attempt's outcome in one transaction: the delivery (succeeded; or retried after the
 * backoff while its retry window lasts, else failed) and its endpoint's failure streak. An endpoint
 * whose every attempt failed for the whole retry window (its streak is that old, or a delivery
 * just used up its window without one success), and at least `disableAfterFailures` of them, is
 * disabled and its pending deliveries closed: the answer to "receiver gone for good".
 * Returns whether this attempt disabled the endpoint.
 *
 * The endpoint's row is locked first, before any delivery's: a round attempts several deliveries
 * of one endpoint at once, and the attempt that disables it updates every pending delivery of it,
 * so taking a delivery before the endpoint let two outcomes wait on each other (a deadlock, the
 * round lost). And a failed attempt of an endpoint already disabled (by an outcome recorded while
 * this one was in flight) is not retried: the disabling closed every pending delivery, and this
 * one, claimed then, must not come back as pending.
 */
export async function recordOutcome(deps: NotifyDeps, due: Due, attempt: Attempt): Promise<{ disabled: boolean }> {
  const [d, e] = ["delivery", "endpoint"].map((t) => qualifiedTable(deps.schema, t));
  const s = deps.delivery;
  return deps.orm.em.fork().transactional(async (em) => {
    const [endpoint] = await em.execute<{ status: string }[]>(
      `SELECT status FROM ${e} WHERE id = ? FOR NO KEY UPDATE`,
      [due.endpoint_id],
    );
    if (attempt.ok) {
      await em.execute(
        `UPDATE ${d} SET status = 'succeeded', attempts = attempts + 1, last_attempt_at = now(), last_status_code = ?,
                last_error = NULL, delivered_at = now(), next_attempt_at = NULL, locked_until = NULL WHERE id = ?`,
        [attempt.status, due.id],
      );
      await em.execute(`UPDATE ${e} SET failures = 0, failing_since = NULL WHERE id = ?`, [due.endpoint_id]);
      return { disabled: false };
    }
    const wait = backoffMs(due.attempts + 1, s.backoffBaseMs, s.backoffMaxMs);
    // Retried while the endpoint is enabled and the next attempt still falls inside the window that
    // opened with the delivery.
    const retry = endpoint?.status === "enabled";
    const [after] = await em.execute<{ status: string }[]>(
      `UPDATE ${d} SET attempts = attempts + 1, last_attempt_at = now(), last_status_code = ?, last_error = ?,
              locked_until = NULL,
              status = CASE WHEN ? AND created_at + make_interval(secs => ?) > now() + make_interval(secs => ?) THEN 'pending' ELSE 'failed' END,
              next_attempt_at = CASE WHEN ? AND created_at + make_interval(secs => ?) > now() + make_interval(secs => ?)
                                     THEN now() + make_interval(secs => ?) END
        WHERE id = ? RETURNING status`,
      [
        attempt.status,
        attempt.error,
        retry,
        s.retryWindowMs / 1000,
        wait / 1000,
        retry,
        s.retryWindowMs / 1000,
        wait / 1000,
        wait / 1000,
        due.id,
      ],
    );
    const [streak] = await em.execute<{ disable: boolean }[]>(
      `UPDATE ${e} SET failures = failures + 1, failing_since = coalesce(failing_since, now())
        WHERE id = ? AND status = 'enabled'
        RETURNING failures >= ? AND (failing_since <= now() - make_interval(secs => ?) OR ?) AS disable`,
      [due.endpoint_id, s.disableAfterFailures, s.retryWindowMs / 1000, after?.status === "failed"],
    );
    if (!streak?.disable) return { disabled: false };
    await em.execute(`UPDATE ${e} SET status = 'disabled', disabled_at = now() WHERE id = ?`, [due.endpoint_id]);
    // The admins hear of it: the notice commits with the disabling, the worker sends it (send-notices.ts).
    await em.execute(
      `INSERT INTO ${qualifiedTable(deps.schema, "admin_notice")} (id, tenant_id, endpoint_id) VALUES (?, ?, ?)`,
      [newId("ntc"), due.tenant_id, due.endpoint_id],
    );
    await em.execute(
      `UPDATE ${d} SET status = 'failed', next_attempt_at = NULL, last_error = coalesce(last_error, 'endpoint_disabled')
        WHERE endpoint_id = ? AND status = 'pending'`,
      [due.endpoint_id],
    );
    return { disabled: true };
  });
}
