import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { OfferChangeId } from "@flowstate/contracts/ids";
import { CreateOfferRequest } from "@flowstate/contracts/rest/offers/offer-requests";
import type { ChangeHandle } from "@flowstate/contracts/rest/offers/offers";
import { applyEvent } from "@flowstate/shared/consumer/apply-event";
import { newId } from "@flowstate/shared/ids/new-id";
import { newEventId } from "@flowstate/shared/outbox/event-id";
import { afterAll, beforeAll, describe, it } from "vitest";
import { offersConsumer } from "../consumers/handlers.ts";
import { createOfferChanges } from "../marketplace/change-sets.ts";
import { answer, connectedTenant, type Harness, outboxEvents, startHarness } from "../testing/harness.ts";
import { marketplace, offerRequest } from "../testing/offer-fixtures.ts";
import { startTracker } from "./tracker.ts";

let h: Harness;
beforeAll(async () => {
  h = await startHarness({ prefix: "offers_tracker" });
});
afterAll(() => h.close());

const slow = (control: string, changeSetStepMs: number) =>
  fetch(`${control}/timing`, {
    method: "PUT",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ changeSetStepMs }),
  });

type Row = { id: string; change_set_id: string; status: string; polls: number; submitted_at: Date; completed_at: Date };
const rows = async (tenantId: string) =>
  h.db.orm.em
    .fork()
    .execute<Row[]>(
      `SELECT id, change_set_id, status, polls, submitted_at, completed_at FROM "${h.db.schema}".offer_change WHERE tenant_id = ?`,
      [tenantId],
    );

describe("the change-set tracker", () => {
  it("resumes after a restart: every change set in flight ends once, with exactly one event each", async () => {
    const { t, productId, seller } = await connectedTenant(h);
    await slow(seller.control, 1500);
    const handles = await Promise.all(
      ["One", "Two", "Three"].map(async (name) =>
        answer<ChangeHandle>(
          await h.call("POST", marketplace(t.id, "offers"), { as: t.admin, body: offerRequest(productId, { name }) }),
          202,
        ),
      ),
    );
    // The service goes down with all three in flight, and comes back after AWS finished them.
    await h.tracker.stop();
    const inFlight = await rows(t.id);
    assert.ok(inFlight.every((r) => r.status === "preparing"));
    // Our record of each change set has an id of ours (contracts/src/ids.ts), beside AWS's ChangeSetId.
    assert.ok(inFlight.every((r) => OfferChangeId.safeParse(r.id).success && r.id !== r.change_set_id));
    await new Promise((r) => setTimeout(r, 3500));
    await h.restartTracker();
    for (const handle of handles) assert.equal((await h.waitForChange(t, handle.change_set_id)).status, "succeeded");
    const succeeded = (await outboxEvents(h, t.id, "OfferChangeSucceeded.v2")).map(
      (e) => e.envelope.data["change_set_id"],
    );
    assert.deepEqual(succeeded.sort(), handles.map((x) => x.change_set_id).sort());
  });

  it("never polls a change set more than once per 2 s, even with two trackers on one database", async () => {
    const { t, productId, seller } = await connectedTenant(h);
    await slow(seller.control, 2500);
    const second = startTracker(h.deps, { idleMs: 20 });
    try {
      const handles = await Promise.all(
        ["A", "B"].map(async (name) =>
          answer<ChangeHandle>(
            await h.call("POST", marketplace(t.id, "offers"), { as: t.admin, body: offerRequest(productId, { name }) }),
            202,
          ),
        ),
      );
      for (const handle of handles) await h.waitForChange(t, handle.change_set_id, 30_000);
    } finally {
      await second.stop();
    }
    for (const r of await rows(t.id)) {
      const lifeSeconds = (new Date(r.completed_at).getTime() - new Date(r.submitted_at).getTime()) / 1000;
      assert.ok(r.polls >= 2, `${r.change_set_id} was polled ${r.polls} times`);
      assert.ok(r.polls <= Math.floor(lifeSeconds / 2), `${r.polls} polls in ${lifeSeconds} s`);
    }
    assert.equal((await outboxEvents(h, t.id, "OfferChangeSucceeded.v2")).length, 2);
  });

  it("resubmits a change set whose submission was cut off (same token), then tracks it", async () => {
    const { t, productId, seller } = await connectedTenant(h);
    const request = CreateOfferRequest.parse(offerRequest(productId, { name: "Cut off" }));
    // What submit-change writes before StartChangeSet, left behind by a process that died there.
    await h.db.orm.em.fork().execute(
      `INSERT INTO "${h.db.schema}".offer_change
         (id, tenant_id, action, request_hash, client_token, request, status, actor, request_id, principal, next_poll_at)
       VALUES (?, ?, 'create', 'h', ?, ?, 'submitting', ?, 'req_cutoff_000001', 'backend', now())`,
      [
        newId("chg"),
        t.id,
        randomUUID(),
        JSON.stringify({ ChangeSetName: "Flowstate create cut off", ChangeSet: createOfferChanges(request) }),
        JSON.stringify({ kind: "user", sub: t.admin.sub }),
      ],
    );
    h.tracker.wake();
    const deadline = Date.now() + 15_000;
    let done: Row | undefined;
    while (Date.now() < deadline && !done) {
      done = (await rows(t.id)).find((r) => r.status === "succeeded");
      await new Promise((r) => setTimeout(r, 100));
    }
    assert.ok(done, "the cut-off change set never succeeded");
    const account = (await (await fetch(seller.control)).json()) as { offers: { name?: string }[] };
    assert.equal(account.offers.filter((o) => o.name === "Cut off").length, 1);
    const [requested] = await outboxEvents(h, t.id, "OfferChangeRequested.v2");
    assert.equal(requested?.envelope.request_id, "req_cutoff_000001");
    assert.equal((await outboxEvents(h, t.id, "OfferChangeSucceeded.v2")).length, 1);
  });

  it("stops polling a disconnected tenant's change sets, and resumes them when the tenant connects again", async () => {
    const { t, productId, seller } = await connectedTenant(h);
    await slow(seller.control, 2500);
    const handle = await answer<ChangeHandle>(
      await h.call("POST", marketplace(t.id, "offers"), { as: t.admin, body: offerRequest(productId) }),
      202,
    );
    h.sellers.disconnect(t.id);
    type Tracked = { untracked_reason: string | null; poll_errors: number; next_poll_at: Date };
    const tracked = async () =>
      (
        await h.db.orm.em
          .fork()
          .execute<Tracked[]>(
            `SELECT untracked_reason, poll_errors, next_poll_at FROM "${h.db.schema}".offer_change WHERE tenant_id = ?`,
            [t.id],
          )
      )[0]!;
    const until = Date.now() + 10_000;
    while ((await tracked()).untracked_reason === null && Date.now() < until) await sleep(100);
    const parked = await tracked();
    assert.equal(parked.untracked_reason, "disconnected");
    // Due long ago, it is still left alone: nothing polls a tenant without a connector.
    await h.db.orm.em
      .fork()
      .execute(
        `UPDATE "${h.db.schema}".offer_change SET next_poll_at = now() - interval '1 hour' WHERE tenant_id = ?`,
        [t.id],
      );
    await sleep(800);
    assert.equal((await tracked()).poll_errors, parked.poll_errors);
    // Connected again (the same seller account): ConnectorConnected resumes the tracking.
    h.sellers.reconnect(t.id, seller.role);
    const connected = {
      id: newEventId(),
      type: "ConnectorConnected",
      version: 1,
      source: "flowstate.connector",
      occurred_at: new Date().toISOString(),
      tenant_id: t.id,
      actor: { kind: "user", sub: "usr_0123456789ab" },
      data: { tenant_id: t.id, account_id: seller.role.accountId },
    };
    await applyEvent(
      h.db.orm,
      h.db.schema,
      connected,
      "ConnectorConnected.v1",
      offersConsumer.handlers["ConnectorConnected.v1"]!,
      h.deps,
    );
    h.deps.wakeTracker();
    assert.equal((await h.waitForChange(t, handle.change_set_id)).status, "succeeded");
    assert.equal((await tracked()).untracked_reason, null);
  });
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
