import { qualifiedTable } from "@flowstate/shared/seam/table";
import type { NotifyDeps } from "../deps.ts";

/**
 * The delivery log keeps DELIVERY_LOG_DAYS (30): older finished deliveries go, then messages no
 * delivery refers to any more. Run by main.ts every hour.
 */
export async function pruneLog(deps: NotifyDeps): Promise<void> {
  const [d, m] = ["delivery", "message"].map((t) => qualifiedTable(deps.schema, t));
  await deps.orm.em.fork().transactional(async (em) => {
    await em.execute(`DELETE FROM ${d} WHERE created_at < now() - make_interval(days => ?) AND status <> 'pending'`, [
      deps.delivery.logDays,
    ]);
    await em.execute(
      `DELETE FROM ${m} WHERE created_at < now() - make_interval(days => ?)
         AND NOT EXISTS (SELECT 1 FROM ${d} WHERE message_id = ${m}.id)`,
      [deps.delivery.logDays],
    );
  });
}
