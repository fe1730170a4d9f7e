import type { EntityManager } from "@mikro-orm/postgresql";

/** The LISTEN channel of a schema's delivery worker (a channel name is at most 63 bytes). */
export const wakeChannel = (schema: string) => `notify_due_${schema}`.slice(0, 63);

/** Wakes the worker when `em`'s transaction commits (PostgreSQL delivers a NOTIFY at commit only). */
export async function wakeOnCommit(em: EntityManager, schema: string): Promise<void> {
  await em.execute("SELECT pg_notify(?, '')", [wakeChannel(schema)]);
}
