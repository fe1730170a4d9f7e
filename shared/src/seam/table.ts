/**
 * A schema-qualified table name for hand-written SQL (`em.execute` does not apply the ORM's
 * schema). The call context's `table(name)`; code without a call (a tracker, a job) passes the schema.
 *
 * @example
 * await em.execute(`SELECT id FROM ${qualifiedTable(deps.schema, "offer_change")} WHERE id = ?`, [id]);
 */
export const qualifiedTable = (schema: string, name: string): string => `"${schema}"."${name}"`;
