import { AsyncLocalStorage } from "node:async_hooks";
import type { Database } from "./open-database.ts";

/** The slice of `pg`'s Pool used here: the client class it checks connections out as. */
interface NativePool {
  Client: { prototype: { query: (...args: unknown[]) => unknown } };
}

const counting = new AsyncLocalStorage<{ statements: number; shapes: string[] }>();

/** A statement's text with its quoted literals blanked (the ORM's flushes inline their values). */
const shapeOf = (query: unknown): string =>
  String(typeof query === "object" && query !== null ? (query as { text?: unknown }).text : query).replace(
    /'(?:[^']|'')*'/g,
    "?",
  );
const instrumented = new WeakSet<object>();

/**
 * How many statements `fn` sends to PostgreSQL: every `query` of the ORM pool's client class made
 * from `fn`'s async context (BEGIN and COMMIT included, each one round trip), so a bench or a test
 * can count a request's round trips on the real database. Other work in the process (a relay, a
 * concurrent request) is not counted. The client class is wrapped once, on first use; outside a
 * count the wrapper only reads an AsyncLocalStorage. `shapes`: each statement's text with quoted
 * literals blanked, in order: two requests that must do the same work (whatever their inputs) can
 * be compared by them, where comparing their timings would fail on a loaded machine.
 *
 * @example
 * const { statements } = await countStatements(orm, () => app.request("/v1/tenants/tnt_1", { method: "PATCH", ... }));
 */
export async function countStatements<T>(
  orm: Database,
  fn: () => Promise<T>,
): Promise<{ result: T; statements: number; shapes: string[] }> {
  const pool = (await orm.em.getConnection().getNativeClient()) as unknown as NativePool;
  const proto = pool.Client.prototype;
  if (!instrumented.has(proto)) {
    instrumented.add(proto);
    const query = proto.query;
    proto.query = function (this: unknown, ...args: unknown[]) {
      const box = counting.getStore();
      if (box) {
        box.statements++;
        box.shapes.push(shapeOf(args[0]));
      }
      return query.apply(this, args);
    };
  }
  const box = { statements: 0, shapes: [] as string[] };
  const result = await counting.run(box, fn);
  return { result, statements: box.statements, shapes: box.shapes };
}
