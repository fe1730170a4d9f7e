import assert from "node:assert/strict";
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
    const holder = await h.db.oneConnection();
    // Its own connection: the service's pool is busy with the waiting sign-ins.
    const watcher = await h.db.oneConnection();
    let signIns: Promise<number[]> | undefined;
    try {
      const em = holder.em.fork();
      await em.execute("BEGIN");
      const held = await em.execute<{ n: number }[]>(
        `SELECT count(*)::int AS n FROM (SELECT 1 FROM ${users} WHERE email_key = ? FOR UPDATE) r`,
        [emailKey(user.email)],
      );
      assert.equal(held[0]?.n, 1);
      signIns = Promise.all(
        [1, 2].map(
          async () =>
            (await h.call("POST", "/v1/auth/signin", { body: { email: user.email, password: user.password } })).status,
        ),
      );
      for (let i = 0; ; i++) {
        const [waiting] = await watcher.em.fork().execute<{ n: number }[]>(
          `SELECT count(*)::int AS n FROM pg_stat_activity
            WHERE wait_event_type = 'Lock' AND position(? in query) > 0 AND position('app_user' in query) > 0`,
          [h.db.schema],
        );
        if (waiting!.n === 2) break;
        assert.ok(i < 1000, "the two sign-ins never both waited for the account's row");
        await new Promise((r) => setTimeout(r, 10));
      }
      await em.execute("COMMIT");
    } finally {
      await holder.close(true);
      await watcher.close(true);
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
