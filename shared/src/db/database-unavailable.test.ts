import assert from "node:assert/strict";
import { afterAll, beforeAll, describe, it } from "vitest";
import { mapError } from "../http/error-handler.ts";
import { isDatabaseUnavailable, openDatabase } from "./open-database.ts";
import { openTestDatabase, type TestDatabase } from "./test-database.ts";

/**
 * A database that cannot be reached for a moment (the pool exhausted, the connection cut by a
 * failover or an administrator) is a 503 with Retry-After for a request, never a 500 and never a
 * wait without end. The fault suite (scripts/faults) found the 500: every connection terminated
 * mid-flow answered a sign-in with INTERNAL_ERROR.
 */
let db: TestDatabase;
beforeAll(async () => {
  db = await openTestDatabase({ prefix: "dbdown" });
});
afterAll(async () => {
  await db?.close();
});

describe("a database that cannot be reached", () => {
  it("fails a wait for a pooled connection after the acquire timeout instead of waiting forever", async () => {
    const orm = await db.oneConnection({ acquireTimeoutMs: 300 });
    try {
      let holding!: () => void;
      const isHolding = new Promise<void>((r) => {
        holding = r;
      });
      const held = orm.em.fork().transactional(async (em) => {
        await em.execute("SELECT 1");
        holding();
        await new Promise((r) => setTimeout(r, 1_500));
      });
      await isHolding;
      const started = Date.now();
      const failed = await orm.em
        .fork()
        .execute("SELECT 1")
        .then(
          () => undefined,
          (err: unknown) => err,
        );
      assert.ok(isDatabaseUnavailable(failed), String(failed));
      // A request that meets it answers 503 with Retry-After, not 500.
      const { problem, headers } = mapError(failed);
      assert.deepEqual([problem.status, problem.code, headers?.["retry-after"]], [503, "UPSTREAM_UNAVAILABLE", "1"]);
      assert.ok(Date.now() - started < 1_400, "the wait ended at the timeout, not when the holder let go");
      await held;
    } finally {
      await orm.close();
    }
  });

  it("answers 503 with Retry-After when its connection is terminated mid-transaction, and gets the pool slot back", async () => {
    const orm = await openDatabase({ url: db.url, schema: db.schema, entities: [], migrations: [], migrate: false });
    try {
      let started!: (pid: number) => void;
      const backend = new Promise<number>((r) => {
        started = r;
      });
      const sleeping = orm.em
        .fork()
        .transactional(async (em) => {
          const [row] = await em.execute<{ pid: number }[]>("SELECT pg_backend_pid() AS pid");
          started(row!.pid);
          await em.execute("SELECT pg_sleep(5)");
        })
        .then(
          () => undefined,
          (err: unknown) => err,
        );
      const pid = await backend;
      await new Promise((r) => setTimeout(r, 200));
      await db.orm.em.fork().execute("SELECT pg_terminate_backend(?)", [pid]);
      const failed = await sleeping;
      assert.ok(isDatabaseUnavailable(failed), String(failed));
      const { problem, headers } = mapError(failed);
      assert.deepEqual([problem.status, problem.code, headers?.["retry-after"]], [503, "UPSTREAM_UNAVAILABLE", "1"]);
      // And the pool recovers by itself: the next statement gets a fresh connection, and the cut
      // one is not left checked out (Kysely's failed rollback never released it: a slot lost for good).
      assert.deepEqual(await orm.em.fork().execute("SELECT 1 AS one"), [{ one: 1 }]);
      const pool = (await orm.em.getConnection().getNativeClient()) as unknown as {
        totalCount: number;
        idleCount: number;
      };
      assert.deepEqual([pool.totalCount, pool.idleCount], [1, 1], "no connection left checked out");
    } finally {
      await orm.close();
    }
  });

  it("answers 503 when the connection was cut between two statements of a transaction", async () => {
    const orm = await openDatabase({ url: db.url, schema: db.schema, entities: [], migrations: [], migrate: false });
    try {
      const failed = await orm.em
        .fork()
        .transactional(async (em) => {
          const [row] = await em.execute<{ pid: number }[]>("SELECT pg_backend_pid() AS pid");
          await db.orm.em.fork().execute("SELECT pg_terminate_backend(?)", [row!.pid]);
          await new Promise((r) => setTimeout(r, 200)); // the FATAL notice reaches the client
          await em.execute("SELECT 1");
        })
        .then(
          () => undefined,
          (err: unknown) => err,
        );
      assert.ok(isDatabaseUnavailable(failed), String(failed));
      assert.equal(mapError(failed).problem.status, 503);
    } finally {
      await orm.close();
    }
  });

  it("is not said of a statement's own error", async () => {
    const failed = await db.orm.em
      .fork()
      .execute("SELECT * FROM no_such_table")
      .then(
        () => undefined,
        (err: unknown) => err,
      );
    assert.ok(failed instanceof Error);
    assert.equal(isDatabaseUnavailable(failed), false);
    assert.equal(mapError(failed).problem.status, 500);
  });
});
