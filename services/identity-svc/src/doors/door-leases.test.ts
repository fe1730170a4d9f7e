import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, beforeAll, describe, it } from "vitest";
import { type Harness, startHarness } from "../testing/harness.ts";
import { holdTransaction } from "../testing/held-transaction.ts";

/**
 * The door set's lock (door-leases.ts `atCommit`): a write that reads the doors to push to before
 * it commits holds it shared from its first statement; a lease renewal takes it exclusively, so a
 * lease that becomes live while such a write runs does so only after the write committed, and the
 * door then drops its caches (it regained its lease), so the list read inside the write is complete.
 */
let h: Harness;
beforeAll(async () => {
  h = await startHarness({ prefix: "id_door_lock" });
});
afterAll(() => h.close());

const instance = () => `edge-gateway-${randomBytes(8).toString("hex")}`;

/** A transaction holding the door set shared, as a flag change does, until it commits. */
const holdDoorSet = () => holdTransaction(h, (em) => em.execute(`SELECT ${h.deps.doors.leases.atCommit.holdShared}`));

describe("the door set's lock", () => {
  it("makes a lease renewal wait for a write that read the doors before its commit", async () => {
    const writer = holdDoorSet();
    await writer.held;
    let renewed = false;
    const renewal = h.deps.doors.leases.renew(instance(), "http://127.0.0.1:9", 4_000).then((r) => {
      renewed = true;
      return r;
    });
    await sleep(300);
    assert.equal(renewed, false, "a lease went live while a write that read the doors was running");
    await writer.commit();
    assert.deepEqual(await renewal, { registered: true });
  });

  it("is not held by a flag change still waiting for its tenant's lock: renewals go on meanwhile", async () => {
    const owner = await h.signUp();
    const tenant = await h.createTenant(owner);
    // A long transaction on the tenant (any verb that locks it).
    const other = holdTransaction(h, (em) =>
      em.execute(`SELECT id FROM "${h.deps.schema}".tenant WHERE id = ? FOR UPDATE`, [tenant.id]),
    );
    await other.held;
    const change = h.call("PUT", `/v1/tenants/${tenant.id}/features`, {
      as: owner.identity,
      body: { marketplace_offers: true },
    });
    await sleep(300); // the flag change is waiting for the tenant's row now
    const renewal = h.deps.doors.leases.renew(instance(), "http://127.0.0.1:9", 4_000);
    const outcome = await Promise.race([renewal.then(() => "renewed"), sleep(2_000).then(() => "waited")]);
    await other.commit();
    assert.equal((await change).status, 200);
    await renewal;
    assert.equal(outcome, "renewed", "a renewal waited for a write that was itself waiting");
  });

  it("is shared between such writes: one does not wait for another", async () => {
    const first = holdDoorSet();
    await first.held;
    const second = holdDoorSet();
    await Promise.race([second.held, sleep(2_000).then(() => assert.fail("the second write waited for the first"))]);
    await Promise.all([second.commit(), first.commit()]);
  });
});
