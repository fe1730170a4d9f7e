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
