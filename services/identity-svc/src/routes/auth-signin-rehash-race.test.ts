import assert from "node:assert/strict";
import { holdLocks } from "@flowstate/shared/testing/held-locks";
import { afterAll, beforeAll, describe, it } from "vitest";
import { hashPassword } from "../crypto/password.ts";
import { type Harness, startHarness } from "../testing/harness.ts";
import { emailKey } from "../verbs/sign-up.ts";

/**
 * A sign-in whose stored hash was made with other Argon2 settings rewrites it. Two such sign-ins
 * of one account at once once each took the account's row FOR SHARE and then updated it: each
 * waited for the other's share lock, PostgreSQL aborted one (40P01) and it answered 500. Made to
 * meet every time here: another transaction holds the row until both sign-ins wait for it.
 */
const CURRENT = { memoryKiB: 64, passes: 2, parallelism: 1 };
const OLDER = { memoryKiB: 32, passes: 1, parallelism: 1 };

let h: Harness;
beforeAll(async () => {
  h = await startHarness({ prefix: "id_rehash_race", argon2: CURRENT });
});
afterAll(() => h.close());

describe("two sign-ins that rewrite one account's password hash", () => {
  it("both sign in, one after the other, and the hash ends with the current settings", async () => {
    const user = await h.signUp();
    const users = `"${h.db.schema}".app_user`;
    await h.db.orm.em
      .fork()
      .execute(`UPDATE ${users} SET password_hash = ? WHERE email_key = ?`, [
        await hashPassword(user.password, OLDER),
        emailKey(user.email),
      ]);
    const held = await holdLocks(h.db);
    let signIns: Promise<number[]> | undefined;
    try {
      const locked = await held.em.execute<{ n: number }[]>(
        `SELECT count(*)::int AS n FROM (SELECT 1 FROM ${users} WHERE email_key = ? FOR UPDATE) r`,
        [emailKey(user.email)],
      );
      assert.equal(locked[0]?.n, 1);
      signIns = Promise.all(
        [1, 2].map(
          async () =>
            (await h.call("POST", "/v1/auth/signin", { body: { email: user.email, password: user.password } })).status,
        ),
      );
      await held.waiters(2, "the two sign-ins both wait for the account's row");
      await held.commit();
    } finally {
      await held.close();
    }
    assert.deepEqual(await signIns, [200, 200]);
    const [row] = await h.db.orm.em
      .fork()
      .execute<{ password_hash: string }[]>(`SELECT password_hash FROM ${users} WHERE email_key = ?`, [
        emailKey(user.email),
      ]);
    assert.match(row!.password_hash, /^\$argon2id\$v=19\$m=64,t=2,p=1\$/);
  });
});
