import assert from "node:assert/strict";
import { waitFor } from "@flowstate/shared/consumer/test-events";
import { afterAll, beforeAll, describe, it } from "vitest";
import { type Harness, startHarness } from "../testing/harness.ts";
import { holdTransaction } from "../testing/held-transaction.ts";

let h: Harness;
beforeAll(async () => {
  h = await startHarness({ prefix: "id_fail_closed" });
});
afterAll(() => h.close());

const sql = <T>(query: string, params: unknown[] = []) => h.db.orm.em.fork().execute<T[]>(query, params);

/**
 * §7 check 5: the ownership check fails closed. The deletion is caught in the middle of it (waiting
 * on the membership table, which another transaction holds), and its database connection is then
 * killed, as a failover or an operator's pg_terminate_backend would: the answer is an error, never
 * a deletion, and the account is whole afterwards.
 */
describe("account deletion with the database failing during the ownership check", () => {
  it("answers an error and deletes nothing when the check's connection dies", async () => {
    const u = await h.signUp();
    const tenant = await h.createTenant(u);
    const holder = holdTransaction(h, (em) =>
      em.execute(`LOCK TABLE "${h.db.schema}".membership IN ACCESS EXCLUSIVE MODE`),
    );
    await holder.held;
    try {
      const deletion = h.call("DELETE", "/v1/users/me", { as: u.identity });
      // The deletion's statement waiting on the membership lock: the ownership check.
      let pid: number | undefined;
      await waitFor(
        async () => {
          const [row] = await sql<{ pid: number }>(
            `SELECT pid FROM pg_stat_activity
              WHERE wait_event_type = 'Lock' AND query ILIKE '%membership%' AND query ILIKE '%owner%'`,
          );
          pid = row?.pid;
          return pid !== undefined || undefined;
        },
        15_000,
        "the ownership check waiting on the lock",
        20,
      );
      await sql("SELECT pg_terminate_backend(?)", [pid]);
      const res = await deletion;
      assert.ok(res.status >= 500 || res.status === 409, `an error, not ${res.status}: ${await res.text()}`);
    } finally {
      await holder.commit();
    }
    const [user] = await sql<{ status: string; email: string | null }>(
      `SELECT status, email FROM "${h.db.schema}".app_user WHERE sub = ?`,
      [u.sub],
    );
    assert.deepEqual(user, { status: "active", email: u.email }, "the account is whole");
    const owners = await sql(`SELECT 1 FROM "${h.db.schema}".membership WHERE tenant_id = ? AND role = 'owner'`, [
      tenant.id,
    ]);
    assert.equal(owners.length, 1, "the tenant still has its owner");
    const events = await sql(
      `SELECT 1 FROM "${h.db.schema}".outbox_event WHERE event_key = 'AccountDeleted.v1' AND envelope->>'subject' = ?`,
      [u.sub],
    );
    assert.equal(events.length, 0, "no AccountDeleted left the service");
  });
});
