import { qualifiedTable } from "@flowstate/shared/seam/table";
import type { NotifyDeps } from "../deps.ts";

/**
 * The delivery log keeps DELIVERY_LOG_DAYS (30): older finished deliveries go, then messages no
 * delivery refers to any more, and personal mails and admin notices done that long ago. Run by main.ts every hour.
 */
export async function pruneLog(deps: NotifyDeps): Promise<void> {
  const [d, m, p, n] = ["delivery", "message", "person_mail", "admin_notice"].map((t) =>
    qualifiedTable(deps.schema, t),
  );
  await deps.orm.em.fork().transactional(async (em) => {
    await em.execute(`DELETE FROM ${d} WHERE created_at < now() - make_interval(days => ?) AND status <> 'pending'`, [
      deps.delivery.logDays,
    ]);
    await em.execute(
      `DELETE FROM ${m} WHERE created_at < now() - make_interval(days => ?)
         AND NOT EXISTS (SELECT 1 FROM ${d} WHERE message_id = ${m}.id)`,
      [deps.delivery.logDays],
    );
    for (const done of [`${p} WHERE done_at`, `${n} WHERE sent_at`])
      await em.execute(`DELETE FROM ${done} < now() - make_interval(days => ?)`, [deps.delivery.logDays]);
  });
}
