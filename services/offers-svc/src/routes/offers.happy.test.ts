import assert from "node:assert/strict";
import type { OfferChange } from "@flowstate/contracts/rest/offers/changes";
import type { ChangeHandle, Offer, OfferList } from "@flowstate/contracts/rest/offers/offers";
import { afterAll, beforeAll, describe, it } from "vitest";
import { type Harness, outboxEvents, startHarness, type TestTenant } from "../testing/harness.ts";
import { dayFromNow, marketplace, offerRequest } from "../testing/offer-fixtures.ts";

let h: Harness;
beforeAll(async () => {
  h = await startHarness({ prefix: "offers_happy" });
});
afterAll(() => h.close());

async function connected(): Promise<{ t: TestTenant; productId: string }> {
  const t = h.tenant();
  const seller = (await (await fetch((await h.connect(t.id)).control)).json()) as {
    products: { id: string; visibility: string }[];
  };
  return { t, productId: seller.products.find((p) => p.visibility === "Public")?.id ?? "" };
}

const json = async <T>(res: Response, status: number): Promise<T> => {
  const text = await res.text();
  assert.equal(res.status, status, text);
  return JSON.parse(text) as T;
};

describe("a private offer's life through offers-svc", () => {
  it("is created, read, cloned with a new buyer and price, released and expired, each a succeeded change set", async () => {
    const { t, productId } = await connected();
    const created = await json<ChangeHandle>(
      await h.call("POST", marketplace(t.id, "offers"), { as: t.admin, body: offerRequest(productId) }),
      202,
    );
    assert.equal(created.status, "preparing");
    assert.equal(created.location, marketplace(t.id, `changes/${created.change_set_id}`));
    const done = await h.waitForChange(t, created.change_set_id);
    assert.equal(done.status, "succeeded", JSON.stringify(done));
    const offerId = done.offer_id ?? "";
    assert.match(offerId, /^offer-/);

    const offer = await json<Offer>(
      await h.call("GET", marketplace(t.id, `offers/${offerId}`), { as: t.member, role: "member" }),
      200,
    );
    assert.equal(offer.state, "draft");
    assert.equal(offer.name, "Acme annual contract");
    assert.deepEqual(offer.buyer_accounts, ["444455556666"]);
    assert.deepEqual(offer.pricing, {
      model: "contract",
      currency: "USD",
      price: "0.00",
      dimensions: [{ key: "BasicService", quantity: 1 }],
    });
    assert.deepEqual(offer.payment_schedule, [{ charge_date: dayFromNow(40), amount: "12000.00" }]);
    assert.deepEqual(offer.legal_terms, { eula: { type: "standard", version: "2022-07-14" } });
    assert.deepEqual(offer.validity, { duration: "P12M" });
    assert.equal(offer.availability_end_date, dayFromNow(30));
    assert.deepEqual(offer.other_terms, []);

    const released = await json<ChangeHandle>(
      await h.call("POST", marketplace(t.id, `offers/${offerId}/release`), { as: t.admin }),
      202,
    );
    assert.equal((await h.waitForChange(t, released.change_set_id)).status, "succeeded");
    const afterRelease = await json<Offer>(
      await h.call("GET", marketplace(t.id, `offers/${offerId}`), { as: t.admin }),
      200,
    );
    assert.equal(afterRelease.state, "released");
    assert.ok(afterRelease.release_date);

    const clone = await json<ChangeHandle>(
      await h.call("POST", marketplace(t.id, `offers/${offerId}/clone`), {
        as: t.admin,
        body: {
          buyer_accounts: ["777788889999"],
          pricing: {
            model: "contract",
            currency: "EUR",
            price: "0.00",
            dimensions: [{ key: "BasicService", quantity: 2 }],
          },
          payment_schedule: [{ charge_date: dayFromNow(45), amount: "9000.00" }],
        },
      }),
      202,
    );
    const cloned = await h.waitForChange(t, clone.change_set_id);
    assert.equal(cloned.status, "succeeded", JSON.stringify(cloned));
    assert.equal(cloned.source_offer_id, offerId);
    const copy = await json<Offer>(
      await h.call("GET", marketplace(t.id, `offers/${cloned.offer_id}`), { as: t.admin }),
      200,
    );
    assert.equal(copy.state, "draft");
    assert.deepEqual(copy.buyer_accounts, ["777788889999"]);
    assert.equal(copy.pricing?.currency, "EUR");
    assert.deepEqual(copy.payment_schedule, [{ charge_date: dayFromNow(45), amount: "9000.00" }]);
    assert.equal(copy.name, offer.name);
    assert.deepEqual(copy.legal_terms, offer.legal_terms);

    const expired = await json<ChangeHandle>(
      await h.call("POST", marketplace(t.id, `offers/${offerId}/expire`), { as: t.admin }),
      202,
    );
    assert.equal((await h.waitForChange(t, expired.change_set_id)).status, "succeeded");
    const gone = await json<Offer>(await h.call("GET", marketplace(t.id, `offers/${offerId}`), { as: t.admin }), 200);
    assert.equal(gone.state, "expired");
    assert.equal(gone.availability_end_date, dayFromNow(-1));

    const listed = await json<OfferList>(
      await h.call("GET", marketplace(t.id, "offers?state=expired"), { as: t.member, role: "member" }),
      200,
    );
    assert.ok(listed.offers.some((o) => o.offer_id === offerId));
    assert.ok(listed.offers.every((o) => o.state === "expired"));

    const events = await outboxEvents(h, t.id);
    const succeeded = events.filter((e) => e.event_key === "OfferChangeSucceeded.v2").map((e) => e.envelope);
    assert.deepEqual(
      succeeded.map((e) => [e.data["action"], e.data["offer_id"]]),
      [
        ["create", offerId],
        ["release", offerId],
        ["clone", cloned.offer_id],
        ["expire", offerId],
      ],
    );
    for (const e of succeeded) {
      assert.deepEqual(e.actor, { kind: "user", sub: t.admin.sub });
      assert.equal(e.data["principal"], "backend");
    }
    assert.equal(events.filter((e) => e.event_key === "OfferChangeRequested.v2").length, 4);
  });

  it("reports a release without buyers as failed, with AWS's code and a readable message", async () => {
    const { t, productId } = await connected();
    const { buyer_accounts: _, ...noBuyers } = offerRequest(productId);
    const created = await json<ChangeHandle>(
      await h.call("POST", marketplace(t.id, "offers"), { as: t.admin, body: noBuyers }),
      202,
    );
    const draft = await h.waitForChange(t, created.change_set_id);
    assert.equal(draft.status, "succeeded", JSON.stringify(draft));
    const release = await json<ChangeHandle>(
      await h.call("POST", marketplace(t.id, `offers/${draft.offer_id}/release`), { as: t.admin }),
      202,
    );
    const failed: OfferChange = await h.waitForChange(t, release.change_set_id);
    assert.equal(failed.status, "failed");
    assert.equal(failed.failure_code, "CLIENT_ERROR");
    const errors = failed.changes.flatMap((c) => c.errors);
    assert.ok(
      errors.some((e) => e.code === "INVALID_BUYER_ACCOUNTS"),
      JSON.stringify(errors),
    );
    assert.match(errors.find((e) => e.code === "INVALID_BUYER_ACCOUNTS")?.message ?? "", /buyer AWS account/);
    const [event] = await outboxEvents(h, t.id, "OfferChangeFailed.v2");
    assert.equal(event?.envelope.data["action"], "release");
    assert.deepEqual(event?.envelope.data["error_codes"], ["INVALID_BUYER_ACCOUNTS"]);
  });
});
