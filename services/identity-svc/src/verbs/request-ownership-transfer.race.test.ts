import assert from "node:assert/strict";
import { afterAll, beforeAll, describe, it } from "vitest";
import { type Harness, startHarness } from "../testing/harness.ts";

/**
 * The owner asks a member to take the tenant over while that member (an admin) renames it. The
 * transfer's invitation names the member, and its foreign key, checked at COMMIT (every identity
 * key is deferred), takes the member's account row last, after the tenant; the rename holds the
 * member's account row and waits for the tenant. Each then waited for the other and PostgreSQL
 * aborted one (40P01): a 500. Made to meet every time: another transaction holds the pending
 * transfer's row, so the owner's request waits there holding the tenant, until the rename waits too.
 */
let h: Harness;
beforeAll(async () => {
  h = await startHarness({ prefix: "id_transfer_race" });
});
afterAll(() => h.close());

describe("an ownership transfer and the invitee's own tenant write at once", () => {
  it("both succeed, one after the other", async () => {
    const owner = await h.signUp();
    const invitee = await h.signUp();
    const t = await h.createTenant(owner);
    await h.addMember(owner, t.id, invitee, "admin");
    const transfer = () =>
      h.call("POST", `/v1/tenants/${t.id}/ownership-transfer`, {
        as: owner.identity,
        body: { new_owner_sub: invitee.sub },
      });
    assert.equal((await transfer()).status, 202, "the pending transfer the second one replaces");

    const holder = await h.db.oneConnection();
    // Its own connection: the service's pool is busy with the waiting requests.
    const watcher = await h.db.oneConnection();
    const waiting = async () => {
      const [row] = await watcher.em
        .fork()
        .execute<{ n: number }[]>(
          `SELECT count(*)::int AS n FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND position(? in query) > 0`,
          [h.db.schema],
        );
      return row!.n;
    };
    const until = async (n: number, what: string) => {
      for (let i = 0; (await waiting()) < n; i++) {
        assert.ok(i < 1000, what);
        await new Promise((r) => setTimeout(r, 10));
      }
    };
    let statuses: Promise<number[]> | undefined;
    try {
      const em = holder.em.fork();
      await em.execute("BEGIN");
      const held = await em.execute<{ n: number }[]>(
        `SELECT count(*)::int AS n FROM (SELECT 1 FROM "${h.db.schema}".invitation
           WHERE tenant_id = ? AND kind = 'ownership' AND status = 'pending' FOR UPDATE) r`,
        [t.id],
      );
      assert.equal(held[0]?.n, 1);
      const again = transfer();
      await until(1, "the second transfer never waited for the pending one");
      const rename = h.call("PATCH", `/v1/tenants/${t.id}`, { as: invitee.identity, body: { name: "Renamed" } });
      await until(2, "the rename never waited");
      statuses = Promise.all([again, rename].map(async (r) => (await r).status));
      await em.execute("COMMIT");
    } finally {
      await holder.close(true);
      await watcher.close(true);
    }
    assert.deepEqual(await statuses, [202, 200]);
  });
});
