import { type EntityManager, MikroORM } from "@mikro-orm/postgresql";

/**
 * Runs `fn` on one short-lived connection to `url` (administration, tests reading another
 * process's tables), never a service's pool. The connection is closed whatever `fn` does.
 *
 * @example
 * await withConnection(adminUrl, (em) => em.execute("SELECT 1"));
 */
export async function withConnection<T>(url: string, fn: (em: EntityManager) => Promise<T>): Promise<T> {
  const orm = await MikroORM.init({
    clientUrl: url,
    entities: [],
    pool: { min: 0, max: 1 },
    debug: false,
    discovery: { warnWhenNoEntities: false },
  });
  try {
    return await fn(orm.em.fork());
  } finally {
    await orm.close();
  }
}
