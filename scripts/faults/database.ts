import { type EntityManager, MikroORM } from "@mikro-orm/postgresql";

/** One short-lived administrator connection (the fault suite reads every schema and ends backends). */
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
