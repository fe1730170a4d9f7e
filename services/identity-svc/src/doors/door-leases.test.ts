import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import type { EntityManager } from "@mikro-orm/postgresql";
import { afterAll, beforeAll, describe, it } from "vitest";
import { type Harness, startHarness } from "../testing/harness.ts";

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

/** A transaction holding the door set shared, as a flag change does, until `release` is called. */
function holdDoorSet(): { held: Promise<void>; release: () => void; done: Promise<unknown> } {
  let release!: () => void;
  const gate = new Promise<void>((resolve) => {
    release = resolve;
  });
  let locked!: () => void;
  const held = new Promise<void>((resolve) => {
    locked = resolve;
  });
  const done = h.deps.orm.em.fork().transactional(async (em) => {
    await (em as EntityManager).execute(`SELECT ${h.deps.doors.leases.atCommit.holdShared}`);
    locked();
    await gate;
  });
  return { held, release, done };
}

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
    writer.release();
    await writer.done;
    assert.deepEqual(await renewal, { registered: true });
  });

  it("is not held by a flag change still waiting for its tenant's lock: renewals go on meanwhile", async () => {
    const owner = await h.signUp();
    const tenant = await h.createTenant(owner);
    let release!: () => void;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    let locked!: () => void;
    const held = new Promise<void>((resolve) => {
      locked = resolve;
    });
    // A long transaction on the tenant (any verb that locks it).
    const other = h.deps.orm.em.fork().transactional(async (em) => {
      await (em as EntityManager).execute(`SELECT id FROM "${h.deps.schema}".tenant WHERE id = ? FOR UPDATE`, [
        tenant.id,
      ]);
      locked();
      await gate;
    });
    await held;
    const change = h.call("PUT", `/v1/tenants/${tenant.id}/features`, {
      as: owner.identity,
      body: { marketplace_offers: true },
    });
    await sleep(300); // the flag change is waiting for the tenant's row now
    const renewal = h.deps.doors.leases.renew(instance(), "http://127.0.0.1:9", 4_000);
    const outcome = await Promise.race([renewal.then(() => "renewed"), sleep(2_000).then(() => "waited")]);
    release();
    await other;
    assert.equal((await change).status, 200);
    await renewal;
    assert.equal(outcome, "renewed", "a renewal waited for a write that was itself waiting");
  });

  it("is shared between such writes: one does not wait for another", async () => {
    const first = holdDoorSet();
    await first.held;
    const second = holdDoorSet();
    await Promise.race([second.held, sleep(2_000).then(() => assert.fail("the second write waited for the first"))]);
    second.release();
    first.release();
    await Promise.all([first.done, second.done]);
  });
});
