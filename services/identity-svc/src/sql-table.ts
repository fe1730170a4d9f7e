/**
 * A schema-qualified table name for hand-written SQL (`em.execute` does not apply the ORM's schema).
 * Its own module, typed by the one field it reads, so that what the call context itself runs
 * (live-credential.ts, inside every write transaction) can use it without importing context.ts.
 */
export const table = (ctx: { readonly deps: { readonly schema: string } }, name: string): string =>
  `"${ctx.deps.schema}"."${name}"`;
