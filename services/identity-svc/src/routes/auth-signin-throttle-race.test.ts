import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { holdLocks } from "@flowstate/shared/testing/held-locks";
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
    const held = await holdLocks(h.db);
    let attempt: Promise<number> | undefined;
    try {
      const locked = await held.em.execute<{ n: number }[]>(
        `SELECT count(*)::int AS n FROM (SELECT 1 FROM ${throttle} FOR UPDATE) r`,
      );
      assert.equal(locked[0]?.n, 1, "the first wrong attempt left the address's row");
      attempt = signIn(user.email, wrong);
      await held.waiters(1, "the attempt waits for the row");
      await held.em.execute(`DELETE FROM ${throttle}`);
      await held.commit();
    } finally {
      await held.close();
    }
    assert.equal(await attempt, 401, "a wrong password is still 401, its attempt counted afresh");
    const [row] = await h.db.orm.em.fork().execute<{ failures: number }[]>(`SELECT failures FROM ${throttle}`);
    assert.equal(row?.failures, 1);
    assert.equal(await signIn(user.email, user.password), 200);
  });
});
