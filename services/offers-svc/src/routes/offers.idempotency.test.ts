import assert from "node:assert/strict";
import type { ChangeHandle } from "@flowstate/contracts/rest/offers/offers";
import { afterAll, beforeAll, describe, it } from "vitest";
import { answer, connectedTenant, type Harness, outboxEvents, startHarness } from "../testing/harness.ts";
import { marketplace, offerRequest } from "../testing/offer-fixtures.ts";

let h: Harness;
beforeAll(async () => {
  h = await startHarness({ prefix: "offers_idem" });
});
afterAll(() => h.close());

const offersNamed = async (control: string, name: string) =>
  ((await (await fetch(control)).json()) as { offers: { name?: string }[] }).offers.filter((o) => o.name === name)
    .length;

describe("Idempotency-Key on offer mutations", () => {
  it("makes one offer when the same create is sent twice with one key, and answers the same change set", async () => {
    const { t, productId, seller } = await connectedTenant(h);
    const body = offerRequest(productId, { name: "Sent twice" });
    const headers = { "idempotency-key": "create-acme-1" };
    const first = await answer<ChangeHandle>(
      await h.call("POST", marketplace(t.id, "offers"), { as: t.admin, body, headers }),
      202,
    );
    const second = await answer<ChangeHandle>(
      await h.call("POST", marketplace(t.id, "offers"), { as: t.admin, body, headers }),
      202,
    );
    assert.equal(second.change_set_id, first.change_set_id);
    await h.waitForChange(t, first.change_set_id);
    const third = await answer<ChangeHandle>(
      await h.call("POST", marketplace(t.id, "offers"), { as: t.admin, body, headers }),
      202,
    );
    assert.deepEqual(third, { ...first, status: "succeeded" });
    assert.equal(await offersNamed(seller.control, "Sent twice"), 1);
    assert.equal((await outboxEvents(h, t.id, "OfferChangeRequested.v1")).length, 1);
    assert.equal((await outboxEvents(h, t.id, "OfferChangeSucceeded.v1")).length, 1);
  });

  it("makes one offer when eight identical creates with one key arrive at once", async () => {
    const { t, productId, seller } = await connectedTenant(h);
    const body = offerRequest(productId, { name: "Sent at once" });
    const headers = { "idempotency-key": "create-acme-burst" };
    const answers = await Promise.all(
      Array.from({ length: 8 }, async () =>
        answer<ChangeHandle>(await h.call("POST", marketplace(t.id, "offers"), { as: t.admin, body, headers }), 202),
      ),
    );
    assert.equal(new Set(answers.map((a) => a.change_set_id)).size, 1);
    assert.equal((await h.waitForChange(t, answers[0]?.change_set_id ?? "")).status, "succeeded");
    assert.equal(await offersNamed(seller.control, "Sent at once"), 1);
    assert.equal((await outboxEvents(h, t.id, "OfferChangeRequested.v1")).length, 1);
    assert.equal((await outboxEvents(h, t.id, "OfferChangeSucceeded.v1")).length, 1);
  });

  it("keeps keys per tenant, and without a key every request is its own change set", async () => {
    const a = await connectedTenant(h);
    const b = await connectedTenant(h);
    const headers = { "idempotency-key": "same-key-two-tenants" };
    const ha = await answer<ChangeHandle>(
      await h.call("POST", marketplace(a.t.id, "offers"), { as: a.t.admin, body: offerRequest(a.productId), headers }),
      202,
    );
    const hb = await answer<ChangeHandle>(
      await h.call("POST", marketplace(b.t.id, "offers"), { as: b.t.admin, body: offerRequest(b.productId), headers }),
      202,
    );
    assert.notEqual(ha.change_set_id, hb.change_set_id);
    const twice = await Promise.all(
      [1, 2].map(async () =>
        answer<ChangeHandle>(
          await h.call("POST", marketplace(a.t.id, "offers"), { as: a.t.admin, body: offerRequest(a.productId) }),
          202,
        ),
      ),
    );
    assert.notEqual(twice[0]?.change_set_id, twice[1]?.change_set_id);
  });
});
