import assert from "node:assert/strict";
import type { ChangeHandle } from "@flowstate/contracts/rest/offers/offers";
import { offersRoutes } from "@flowstate/contracts/rest/offers/routes";
import { grantAgreementReads } from "@flowstate/seller-sandbox/testing/agreement-reads";
import { afterAll, beforeAll, describe, it } from "vitest";
import { answer, connectedTenant, type Harness, outboxEvents, startHarness } from "../testing/harness.ts";
import { marketplace, offerRequest, replacementRequest } from "../testing/offer-fixtures.ts";
import { putFaults } from "../testing/sandbox-sellers.ts";

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
    assert.equal((await outboxEvents(h, t.id, "OfferChangeRequested.v2")).length, 1);
    assert.equal((await outboxEvents(h, t.id, "OfferChangeSucceeded.v2")).length, 1);
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
    assert.equal((await outboxEvents(h, t.id, "OfferChangeRequested.v2")).length, 1);
    assert.equal((await outboxEvents(h, t.id, "OfferChangeSucceeded.v2")).length, 1);
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

  it("answers a replay with the first answer on every route that honours the key, also once the offer moved on and while the seller's account fails", async () => {
    const { t, productId, seller } = await connectedTenant(h);
    const post = (path: string, key: string, body?: unknown, method = "POST") =>
      h.call(method, marketplace(t.id, path), { as: t.admin, body, headers: { "idempotency-key": key } });
    // The routes come from the registry: a new one that honours the key is a compile error here
    // until it says how to call it, after the previous ones changed the offers (A released at
    // create, cloned to draft B with A expired, B renamed, released, expired).
    const ids = { a: "", b: "" };
    // A replacement offer needs the agreement reads the interface's policy lacks (added by the seller).
    await grantAgreementReads(h.sandbox.endpoint, seller.role.roleArn);
    const view = (await (await fetch(seller.control)).json()) as { agreements: { id: string; status: string }[] };
    const agreementId = view.agreements.find((x) => x.status === "ACTIVE")?.id ?? "";
    const calls: Record<Idempotent, () => Promise<Response>> = {
      "offers.create": () => post("offers", "replay-create", offerRequest(productId, { release: true })),
      "offers.clone": () => post(`offers/${ids.a}/clone`, "replay-clone", { name: "Copy", expire_original: true }),
      "offers.update": () => post(`offers/${ids.b}`, "replay-update", { name: "Copy, renamed" }, "PATCH"),
      "offers.release": () => post(`offers/${ids.b}/release`, "replay-release"),
      "offers.expire": () => post(`offers/${ids.b}/expire`, "replay-expire"),
      "agreements.replacement_offers.create": () =>
        post(`agreements/${agreementId}/replacement-offers`, "replay-replace", replacementRequest({ release: true })),
    };
    const honouring = offersRoutes.filter((r) => "idempotencyKey" in r).map((r) => r.id);
    assert.deepEqual(Object.keys(calls).sort(), [...honouring].sort());
    const first = new Map<string, ChangeHandle>();
    for (const id of honouring) {
      const handle = await answer<ChangeHandle>(await calls[id as Idempotent](), 202);
      const change = await h.waitForChange(t, handle.change_set_id);
      assert.equal(change.status, "succeeded", id);
      if (id === "offers.create") ids.a = change.offer_id ?? "";
      if (id === "offers.clone") ids.b = change.offer_id ?? "";
      first.set(id, handle);
    }
    const replayAll = async () => {
      for (const id of honouring) {
        const again = await answer<ChangeHandle>(await calls[id as Idempotent](), 202);
        assert.deepEqual(again, { ...first.get(id), status: "succeeded" }, id);
      }
    };
    // A is expired and B released then expired: a check run before the key's lookup refuses these.
    await replayAll();
    // And a replay needs nothing of the seller's account.
    await putFaults(seller.control, [
      { kind: "error", operations: ["DescribeEntity", "ListEntities", "DescribeAgreement", "GetAgreementTerms"] },
    ]);
    await replayAll();
    assert.equal((await outboxEvents(h, t.id, "OfferChangeRequested.v2")).length, honouring.length);
  });
});

type Idempotent = Extract<(typeof offersRoutes)[number], { idempotencyKey: object }>["id"];
