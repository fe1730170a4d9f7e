import assert from "node:assert/strict";
import type { OfferHistory } from "@flowstate/contracts/rest/offers/changes";
import type { ChangeHandle, Offer } from "@flowstate/contracts/rest/offers/offers";
import { afterAll, beforeAll, describe, it } from "vitest";
import { answer, connectedTenant, type Harness, outboxEvents, startHarness } from "../testing/harness.ts";
import { dayFromNow, marketplace, offerRequest } from "../testing/offer-fixtures.ts";

let h: Harness;
beforeAll(async () => {
  h = await startHarness({ prefix: "offers_drafts" });
});
afterAll(() => h.close());

type Problem = { code: string; state?: string; errors?: { path: string }[] };

describe("a draft offer changed before release", () => {
  it("takes new information, buyers, pricing (its schedule re-sent with it), legal terms and dates in one change set, shown in the offer's history", async () => {
    const { t, productId } = await connectedTenant(h);
    const read = { as: t.member, role: "member" as const };
    const created = await h.waitForChange(
      t,
      (
        await answer<ChangeHandle>(
          await h.call("POST", marketplace(t.id, "offers"), { as: t.admin, body: offerRequest(productId) }),
          202,
        )
      ).change_set_id,
    );
    const offerId = created.offer_id ?? "";
    const update = {
      name: "Acme, two years",
      buyer_accounts: ["444455556666", "777788889999"],
      pricing: {
        model: "contract",
        currency: "USD",
        price: "0.00",
        dimensions: [{ key: "BasicService", quantity: 2 }],
      },
      legal_terms: { eula: { type: "custom", url: "https://example.com/eula.pdf" } },
      validity: { duration: "P24M" },
      availability_end_date: dayFromNow(45),
    };
    const handle = await answer<ChangeHandle>(
      await h.call("PATCH", marketplace(t.id, `offers/${offerId}`), { as: t.admin, body: update }),
      202,
    );
    assert.equal(handle.currency_not_checked?.reason_code, "NOT_DOCUMENTED_BY_AWS");
    const done = await h.waitForChange(t, handle.change_set_id);
    assert.equal(done.status, "succeeded", JSON.stringify(done));
    assert.equal(done.action, "update");
    assert.equal(done.offer_id, offerId);
    assert.deepEqual(
      done.changes.map((c) => c.change_type),
      [
        "UpdateInformation",
        "UpdateTargeting",
        "UpdatePricingTerms",
        "UpdateValidityTerms",
        "UpdatePaymentScheduleTerms",
        "UpdateLegalTerms",
        "UpdateAvailability",
      ],
    );
    const offer = await answer<Offer>(await h.call("GET", marketplace(t.id, `offers/${offerId}`), read), 200);
    assert.equal(offer.state, "draft");
    assert.equal(offer.name, "Acme, two years");
    assert.equal(offer.description, "Twelve months of Flowstate Analytics for Acme", "the description not given stays");
    assert.deepEqual(offer.buyer_accounts, update.buyer_accounts);
    assert.deepEqual(offer.pricing, update.pricing);
    assert.deepEqual(offer.payment_schedule, offerRequest(productId).payment_schedule, "the schedule stays");
    assert.deepEqual(offer.validity, { duration: "P24M" });
    assert.equal(offer.availability_end_date, dayFromNow(45));
    const events = await outboxEvents(h, t.id, "OfferChangeSucceeded.v2");
    assert.deepEqual(
      events.map((e) => [e.envelope.data["action"], e.envelope.data["offer_id"]]),
      [
        ["create", offerId],
        ["update", offerId],
      ],
    );

    // The offer's history, newest first, a page at a time.
    const history = await answer<OfferHistory>(
      await h.call("GET", marketplace(t.id, `offers/${offerId}/changes`), read),
      200,
    );
    assert.deepEqual(
      history.changes.map((c) => [c.action, c.change_set_id]),
      [
        ["update", handle.change_set_id],
        ["create", created.change_set_id],
      ],
    );
    assert.equal(history.next_cursor, null);
    const first = await answer<OfferHistory>(
      await h.call("GET", marketplace(t.id, `offers/${offerId}/changes?limit=1`), read),
      200,
    );
    assert.equal(first.changes[0]?.action, "update");
    const second = await answer<OfferHistory>(
      await h.call("GET", marketplace(t.id, `offers/${offerId}/changes?limit=1&cursor=${first.next_cursor}`), read),
      200,
    );
    assert.deepEqual(
      second.changes.map((c) => c.action),
      ["create"],
    );
    assert.equal(second.next_cursor, null);
    const forged = Buffer.from(JSON.stringify(["1", "1"])).toString("base64url");
    const bad = await h.call("GET", marketplace(t.id, `offers/${offerId}/changes?cursor=${forged}`), read);
    assert.equal(((await answer<Problem>(bad, 400)) as Problem).code, "INVALID_CURSOR");
  });

  it("refuses at once, submitting nothing: a released offer (409 OFFER_NOT_DRAFT), an empty or invalid change (400)", async () => {
    const { t, seller } = await connectedTenant(h);
    const read = { as: t.member, role: "member" as const };
    const offers = await answer<{ offers: { offer_id: string }[] }>(
      await h.call("GET", marketplace(t.id, "offers?state=released&visibility=private"), read),
      200,
    );
    const drafts = await answer<{ offers: { offer_id: string }[] }>(
      await h.call("GET", marketplace(t.id, "offers?state=draft&visibility=private"), read),
      200,
    );
    const changeSets = async () =>
      ((await (await fetch(seller.control)).json()) as { changeSets: unknown[] }).changeSets.length;
    const before = await changeSets();
    const released = await answer<Problem>(
      await h.call("PATCH", marketplace(t.id, `offers/${offers.offers[0]?.offer_id}`), {
        as: t.admin,
        body: { name: "Too late" },
      }),
      409,
    );
    assert.deepEqual([released.code, released.state], ["OFFER_NOT_DRAFT", "released"]);
    const draft = drafts.offers[0]?.offer_id;
    const empty = await answer<Problem>(
      await h.call("PATCH", marketplace(t.id, `offers/${draft}`), { as: t.admin, body: {} }),
      400,
    );
    assert.equal(empty.code, "VALIDATION_FAILED");
    const past = await answer<Problem>(
      await h.call("PATCH", marketplace(t.id, `offers/${draft}`), {
        as: t.admin,
        body: { availability_end_date: dayFromNow(-1) },
      }),
      400,
    );
    assert.deepEqual(
      past.errors?.map((e) => e.path),
      ["availability_end_date"],
    );
    const member = await h.call("PATCH", marketplace(t.id, `offers/${draft}`), {
      as: t.member,
      role: "member",
      body: { name: "Not mine to change" },
    });
    assert.equal(member.status, 403);
    assert.equal(await changeSets(), before, "no change set was submitted");
  });
});
