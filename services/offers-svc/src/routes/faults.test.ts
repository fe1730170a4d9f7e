import assert from "node:assert/strict";
import type { ChangeHandle, OfferList } from "@flowstate/contracts/rest/offers/offers";
import { afterAll, beforeAll, describe, it } from "vitest";
import { answer, connectedTenant, type Harness, outboxEvents, startHarness } from "../testing/harness.ts";
import { marketplace, offerRequest } from "../testing/offer-fixtures.ts";
import { putFaults } from "../testing/sandbox-sellers.ts";

let h: Harness;
beforeAll(async () => {
  h = await startHarness({ prefix: "offers_faults" });
});
afterAll(() => h.close());

/**
 * Every fault list of the first test keeps SearchAgreements failing: the agreement watch reads a
 * connected tenant on its own (its backfill, its interval), and a pass that succeeded before the
 * fault held would leave the agreements answered from what it recorded (200 with synced_at).
 */
const agreementsFail = { kind: "error", operations: ["SearchAgreements"] };

describe("offers-svc when the seller's account throttles or fails", () => {
  it("succeeds after the SDK's retries when throttling passes, and answers 503 with Retry-After when it does not", async () => {
    const { t, seller } = await connectedTenant(h, {
      faults: [{ kind: "throttle", operations: ["ListEntities"], count: 2 }, agreementsFail],
    });
    const read = { as: t.member, role: "member" as const };
    assert.equal(
      (await answer<OfferList>(await h.call("GET", marketplace(t.id, "offers"), read), 200)).offers.length,
      5,
    );
    await putFaults(seller.control, [{ kind: "throttle", operations: ["ListEntities"] }, agreementsFail]);
    const res = await h.call("GET", marketplace(t.id, "offers"), read);
    const body = await answer<{ code: string; upstream_error: string }>(res, 503);
    assert.equal(body.code, "UPSTREAM_UNAVAILABLE");
    assert.equal(body.upstream_error, "ThrottlingException");
    assert.ok(Number(res.headers.get("retry-after")) > 0);
    assert.equal(
      (await answer<{ code: string }>(await h.call("GET", marketplace(t.id, "agreements"), read), 503)).code,
      "UPSTREAM_UNAVAILABLE",
    );
  });

  it("answers 503 for a submission AWS keeps failing, leaving nothing to track or resubmit", async () => {
    const { t, productId, seller } = await connectedTenant(h);
    await putFaults(seller.control, [{ kind: "error", operations: ["StartChangeSet"] }]);
    const res = await h.call("POST", marketplace(t.id, "offers"), { as: t.admin, body: offerRequest(productId) });
    assert.equal((await answer<{ code: string }>(res, 503)).code, "UPSTREAM_UNAVAILABLE");
    const rows = await h.db.orm.em
      .fork()
      .execute(`SELECT id FROM "${h.db.schema}".offer_change WHERE tenant_id = ?`, [t.id]);
    assert.deepEqual(rows, []);
    assert.deepEqual(await outboxEvents(h, t.id), []);
  });

  it("keeps tracking through throttled polls and still ends the change set once", async () => {
    const { t, productId, seller } = await connectedTenant(h);
    // Three throttled answers use up one poll's attempts; the tracker backs off and polls again.
    await putFaults(seller.control, [{ kind: "throttle", operations: ["DescribeChangeSet"], count: 3 }]);
    const handle = await answer<ChangeHandle>(
      await h.call("POST", marketplace(t.id, "offers"), { as: t.admin, body: offerRequest(productId) }),
      202,
    );
    assert.equal((await h.waitForChange(t, handle.change_set_id, 30_000)).status, "succeeded");
    assert.equal((await outboxEvents(h, t.id, "OfferChangeSucceeded.v2")).length, 1);
  });
});
