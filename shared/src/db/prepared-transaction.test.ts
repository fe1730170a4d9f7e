import assert from "node:assert/strict";
import { afterAll, beforeAll, describe, it } from "vitest";
import { type Database, isDatabaseUnavailable } from "./open-database.ts";
import { inPreparedTransaction } from "./prepared-transaction.ts";
import { openTestDatabase, type TestDatabase } from "./test-database.ts";

/**
 * The transaction the hot tenant writes run in (identity-svc's inTenantTransaction): statements
 * named and prepared on one pooled connection, committed or rolled back as a whole, the connection
 * returned to the pool afterwards (destroyed when it broke), on the real database.
 */
let db: TestDatabase;
let table: string;
beforeAll(async () => {
  db = await openTestDatabase({ prefix: "prepared_tx" });
  table = `"${db.schema}"."note"`;
  await db.orm.em.fork().execute(`CREATE TABLE ${table} (id text PRIMARY KEY, body text NOT NULL)`);
});
afterAll(() => db?.close());

/** A pool of ONE connection on the test schema: whether a transaction gave its connection back shows at once. */
async function withOneConnection(fn: (orm: Database) => Promise<void>): Promise<void> {
  const orm = await db.oneConnection();
  try {
    await fn(orm);
  } finally {
    await orm.close();
  }
}

const rows = async () =>
  (await db.orm.em.fork().execute<{ id: string; body: string }[]>(`SELECT id, body FROM ${table} ORDER BY id`)).map(
    (r) => `${r.id}:${r.body}`,
  );

describe("inPreparedTransaction", () => {
  it("runs each statement as a named prepared statement, its ? numbered outside quoted text", async () => {
    const names = await inPreparedTransaction(db.orm.em.fork(), async (sql) => {
      await sql.execute(`INSERT INTO ${table} (id, body) VALUES (?, 'why? because' || ?)`, ["a", "!"]);
      const again = await sql.execute<{ body: string }>(`SELECT body FROM ${table} WHERE id = ?`, ["a"]);
      assert.deepEqual(again, [{ body: "why? because!" }]);
      return sql.execute<{ name: string; statement: string }>("SELECT name, statement FROM pg_prepared_statements");
    });
    const ours = names.filter((n) => n.statement.includes(table));
    assert.equal(ours.length, 2, JSON.stringify(names));
    for (const n of ours) assert.match(n.name, /^fs_[A-Za-z0-9_-]{32}$/);
    assert.ok(ours.some((n) => n.statement.includes("VALUES ($1, 'why? because' || $2)")));
    assert.deepEqual(await rows(), ["a:why? because!"]);
  });

  it("rolls everything back when fn throws, and the connection serves the next transaction", async () => {
    await withOneConnection(async (orm) => {
      const failed = await inPreparedTransaction(orm.em.fork(), async (sql) => {
        await sql.execute(`INSERT INTO ${table} (id, body) VALUES (?, ?)`, ["b", "kept?"]);
        throw new Error("refused after the insert");
      }).catch((err: Error) => err.message);
      assert.equal(failed, "refused after the insert");
      // A statement error inside: rolled back too, and the one pooled connection is usable again.
      const duplicate = await inPreparedTransaction(orm.em.fork(), async (sql) => {
        await sql.execute(`INSERT INTO ${table} (id, body) VALUES (?, ?)`, ["c", "first"]);
        await sql.execute(`INSERT INTO ${table} (id, body) VALUES (?, ?)`, ["a", "duplicate"]);
      }).catch((err: { code?: string }) => err.code);
      assert.equal(duplicate, "23505");
      await inPreparedTransaction(orm.em.fork(), (sql) =>
        sql.execute(`INSERT INTO ${table} (id, body) VALUES (?, ?)`, ["d", "committed"]),
      );
      assert.deepEqual(await rows(), ["a:why? because!", "d:committed"]);
    });
  });

  it("destroys a connection terminated mid-transaction (a 503 for the caller) and opens a new one for the next", async () => {
    await withOneConnection(async (orm) => {
      const killed = await inPreparedTransaction(orm.em.fork(), async (sql) => {
        const [me] = await sql.execute<{ pid: number }>("SELECT pg_backend_pid() AS pid");
        await db.orm.em.fork().execute("SELECT pg_terminate_backend(?)", [me!.pid]);
        await sql.execute("SELECT 1");
      }).catch((err: unknown) => err);
      assert.ok(isDatabaseUnavailable(killed), String(killed));
      const [after] = await inPreparedTransaction(orm.em.fork(), (sql) =>
        sql.execute<{ one: number }>("SELECT 1 AS one"),
      );
      assert.deepEqual(after, { one: 1 });
    });
  });
});
