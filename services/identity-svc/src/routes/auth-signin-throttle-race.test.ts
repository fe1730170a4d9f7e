import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { recordSecret } from "@flowstate/shared/testing/secrets";
import { afterAll, beforeAll, describe, it } from "vitest";
import { type Harness, startHarness } from "../testing/harness.ts";

/**
 * A sign-in counts its attempt on the address's throttle row while a successful sign-in (or the
 * housekeeping) may delete that row: the count must start afresh, never fail. Made to happen
 * every time here: another transaction holds the row locked, the attempt waits for it, and the
 * row is deleted before the lock is let go.
 */
let h: Harness;
beforeAll(async () => {
  h = await startHarness({ prefix: "id_signin_race" });
});
afterAll(() => h.close());

const signIn = async (email: string, password: string) =>
  (await h.call("POST", "/v1/auth/signin", { body: { email, password } })).status;

describe("the sign-in throttle under a concurrent delete", () => {
  it("counts an attempt whose address row is deleted while it waits for it", async () => {
    const user = await h.signUp();
    const wrong = recordSecret(`wrong-${randomUUID()}`);
    assert.equal(await signIn(user.email, wrong), 401);
    const throttle = `"${h.db.schema}".sign_in_throttle`;
    const holder = await h.db.oneConnection();
    // Its own connection: the service's pool is busy with the waiting attempt.
    const watcher = await h.db.oneConnection();
    let attempt: Promise<number> | undefined;
    try {
      // A transaction by hand on a pool of one connection (every statement takes that one):
      // inside transactional() the watcher's queries would join this transaction's context.
      const em = holder.em.fork();
      await em.execute("BEGIN");
      const held = await em.execute<{ n: number }[]>(
        `SELECT count(*)::int AS n FROM (SELECT 1 FROM ${throttle} FOR UPDATE) r`,
      );
      assert.equal(held[0]?.n, 1, "the first wrong attempt left the address's row");
      attempt = signIn(user.email, wrong);
      // Until the attempt waits for the row lock this transaction holds.
      for (let i = 0; ; i++) {
        const [waiting] = await watcher.em.fork().execute<{ n: number }[]>(
          `SELECT count(*)::int AS n FROM pg_stat_activity
            WHERE wait_event_type = 'Lock' AND position(? in query) > 0 AND position('sign_in_throttle' in query) > 0`,
          [h.db.schema],
        );
        if (waiting!.n > 0) break;
        assert.ok(i < 500, "the attempt never waited for the row");
        await new Promise((r) => setTimeout(r, 10));
      }
      await em.execute(`DELETE FROM ${throttle}`);
      await em.execute("COMMIT");
    } finally {
      await holder.close(true);
      await watcher.close(true);
    }
    assert.equal(await attempt, 401, "a wrong password is still 401, its attempt counted afresh");
    const [row] = await h.db.orm.em.fork().execute<{ failures: number }[]>(`SELECT failures FROM ${throttle}`);
    assert.equal(row?.failures, 1);
    assert.equal(await signIn(user.email, user.password), 200);
  });
});
