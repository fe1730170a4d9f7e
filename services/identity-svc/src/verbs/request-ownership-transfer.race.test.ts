import assert from "node:assert/strict";
import { holdLocks } from "@flowstate/shared/testing/held-locks";
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

    const held = await holdLocks(h.db);
    let statuses: Promise<number[]> | undefined;
    try {
      const locked = await held.em.execute<{ n: number }[]>(
        `SELECT count(*)::int AS n FROM (SELECT 1 FROM "${h.db.schema}".invitation
           WHERE tenant_id = ? AND kind = 'ownership' AND status = 'pending' FOR UPDATE) r`,
        [t.id],
      );
      assert.equal(locked[0]?.n, 1);
      const again = transfer();
      await held.waiters(1, "the second transfer waits for the pending one");
      const rename = h.call("PATCH", `/v1/tenants/${t.id}`, { as: invitee.identity, body: { name: "Renamed" } });
      await held.waiters(2, "the rename waits too");
      statuses = Promise.all([again, rename].map(async (r) => (await r).status));
      await held.commit();
    } finally {
      await held.close();
    }
    assert.deepEqual(await statuses, [202, 200]);
  });
});
