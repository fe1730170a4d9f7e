import type { Database } from "@flowstate/shared/db/open-database";

/**
 * Live retention: deletes archived audit rows older than `windowDays` from both audit tables,
 * at most `perCall` rows per statement, until none is left. The service's role has no DELETE: the
 * work is done by the owner's SECURITY DEFINER function `audit_delete_archived` (src/db/migrations.ts),
 * which deletes only rows an `audit_archive_batch` covers (the trigger checks that again, row by
 * row) and refuses a window shorter than the owner's minimum. Rows not yet archived stay, however
 * old. Each call is its own short transaction, so a large first run never holds a long one.
 *
 * @example
 * const deleted = await deleteArchivedRows({ orm, schema, windowDays: 400 });
 */
export async function deleteArchivedRows(options: {
  orm: Database;
  schema: string;
  windowDays: number;
  perCall?: number;
}): Promise<number> {
  const perCall = options.perCall ?? 5000;
  let total = 0;
  for (;;) {
    const [row] = await options.orm.em
      .fork()
      .execute<{ deleted: string }[]>(
        `SELECT "${options.schema}".audit_delete_archived(make_interval(days => ?), ?)::text AS deleted`,
        [options.windowDays, perCall],
      );
    const deleted = Number(row?.deleted ?? 0);
    total += deleted;
    if (deleted < perCall) return total;
  }
}

/**
 * Why the configured window cannot work, or undefined when it can: a window shorter than the
 * owner's `audit_retention_policy.min_live_window` is refused by `audit_delete_archived` on every
 * round, so the service would run with retention failing each tick. main.ts refuses to boot on it,
 * with this line, as it does on any other bad variable.
 *
 * @example
 * const problem = await retentionWindowProblem({ orm, schema, windowDays: config.AUDIT_RETENTION_DAYS });
 */
export async function retentionWindowProblem(options: {
  orm: Database;
  schema: string;
  windowDays: number;
}): Promise<string | undefined> {
  const [row] = await options.orm.em.fork().execute<{ below: boolean; floor_days: string }[]>(
    `SELECT make_interval(days => ?) < min_live_window AS below,
            ceil(extract(epoch FROM min_live_window) / 86400)::text AS floor_days
       FROM "${options.schema}".audit_retention_policy`,
    [options.windowDays],
  );
  if (!row?.below) return undefined;
  return (
    `AUDIT_RETENTION_DAYS: ${options.windowDays} days is shorter than the database's minimum live window ` +
    `of ${row.floor_days} days (audit_retention_policy, set by the schema's owner); every retention round ` +
    `would be refused. Set it to ${row.floor_days} or more.`
  );
}
