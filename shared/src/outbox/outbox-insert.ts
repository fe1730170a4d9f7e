import type { OutboxRow } from "./enqueue-event.ts";

/** A piece of SQL with `?` placeholders and their values, in order (MikroORM's `em.execute`). */
export interface SqlPart {
  sql: string;
  params: unknown[];
}

/**
 * The outbox INSERT of `rows` (built by `outboxRow`) as one data-modifying CTE, `name AS (INSERT …)`,
 * for the statement that makes the change itself: the change and its events then cost one round
 * trip instead of two (the unit of work sends one INSERT per table it flushes; issue 26). Same
 * transaction, same table, same NOTIFY trigger (statement-level, it fires for a CTE's INSERT too),
 * so the relay sees no difference from `enqueueEvent`.
 *
 * Each row may carry a `tag` (the row it is about) and `keep` is then a condition on `e.tag`: a
 * statement that decides what changed itself (an upsert that skips unchanged values) enqueues only
 * the events of what it changed. PostgreSQL runs every data-modifying CTE to completion whether or
 * not the rest of the statement reads it, so a CTE built here is never skipped.
 *
 * @example
 * const event = outboxRow("TenantRenamed.v1", { tenant_id }, meta);
 * const outbox = outboxInsert("identity", [event]);
 * await em.execute(`WITH ${outbox.sql} UPDATE "identity"."tenant" SET name = ? WHERE id = ?`, [...outbox.params, name, tenant_id]);
 */
export function outboxInsert(
  schema: string,
  rows: readonly (OutboxRow & { tag?: string })[],
  options: { name?: string; keep?: string } = {},
): SqlPart {
  if (rows.length === 0) throw new Error("outboxInsert needs at least one event");
  const name = options.name ?? "outbox_rows";
  const values = rows.map(() => "(?, ?, ?, ?)").join(", ");
  const params = rows.flatMap((r) => [r.id, r.event_key, JSON.stringify(r.envelope), r.tag ?? null]);
  return {
    sql: `${name} AS (
      INSERT INTO "${schema}"."outbox_event" (id, event_key, envelope)
      SELECT e.id, e.event_key, e.envelope::jsonb FROM (VALUES ${values}) AS e(id, event_key, envelope, tag)${
        options.keep ? ` WHERE ${options.keep}` : ""
      }
    )`,
    params,
  };
}
