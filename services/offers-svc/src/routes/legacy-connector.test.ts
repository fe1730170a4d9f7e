import assert from "node:assert/strict";
import type { SellerCurrencies } from "@flowstate/contracts/rest/offers/currencies";
import type { ChangeHandle, OfferList } from "@flowstate/contracts/rest/offers/offers";
import { captureLogs } from "@flowstate/shared/log/capture";
import { afterAll, beforeAll, describe, it } from "vitest";
import { answer, connectedTenant, type Harness, startHarness } from "../testing/harness.ts";
import { marketplace, offerRequest } from "../testing/offer-fixtures.ts";

const logs = captureLogs();
let h: Harness;
beforeAll(async () => {
  // The production interval: the stack update must show without waiting for the agreement watch's next poll.
  h = await startHarness({ prefix: "offers_legacy", logTo: logs.stream, watchIntervalMs: 300_000 });
});
afterAll(() => h.close());

describe("a tenant on the connector stack from before 2026-08-31", () => {
  it("gets 500 INTERNAL_ERROR for agreements (cause logged only), undetermined currencies, working offers; all works after the stack update", async () => {
    const { t, productId, seller } = await connectedTenant(h, { version: "legacy" });
    const read = { as: t.member, role: "member" as const };

    const agreements = await h.call("GET", marketplace(t.id, "agreements"), read);
    const body = await answer<{ code: string; detail: string; request_id: string }>(agreements, 500);
    assert.equal(body.code, "INTERNAL_ERROR");
    assert.equal(body.detail, "an internal error occurred");
    assert.doesNotMatch(JSON.stringify(body), /AccessDenied|SearchAgreements|arn:|MarketplaceConnector/);
    const line = logs.lines.find((l) => l["request_id"] === body.request_id && l["status"] === 500);
    assert.match(JSON.stringify(line?.["err"] ?? {}), /AccessDeniedException/, "the cause is in the log");

    const currencies = await answer<SellerCurrencies>(
      await h.call("GET", marketplace(t.id, "seller/currencies"), read),
      200,
    );
    assert.equal(currencies.determined, false);
    if (currencies.determined) return;
    assert.equal(currencies.reason_code, "CONNECTOR_POLICY_OUTDATED");
    assert.equal(currencies.health, `/v1/tenants/${t.id}/integrations/marketplace/health`);
    // AWS decides the currency; the answer says it was not checked, why, and where the fix is.
    const create = await answer<ChangeHandle>(
      await h.call("POST", marketplace(t.id, "offers"), { as: t.admin, body: offerRequest(productId) }),
      202,
    );
    assert.deepEqual(create.currency_not_checked, {
      reason_code: currencies.reason_code,
      reason: currencies.reason,
      health: currencies.health,
    });
    const created = await h.waitForChange(t, create.change_set_id);
    assert.equal(created.status, "succeeded");
    const clone = await answer<ChangeHandle>(
      await h.call("POST", marketplace(t.id, `offers/${created.offer_id}/clone`), {
        as: t.admin,
        body: { name: "Legacy clone" },
      }),
      202,
    );
    assert.equal(clone.currency_not_checked?.reason_code, "CONNECTOR_POLICY_OUTDATED");
    assert.equal((await h.waitForChange(t, clone.change_set_id)).status, "succeeded");
    for (const verb of ["release", "expire"]) {
      const handle = await answer<ChangeHandle>(
        await h.call("POST", marketplace(t.id, `offers/${created.offer_id}/${verb}`), { as: t.admin }),
        202,
      );
      assert.equal(handle.currency_not_checked, undefined, `${verb} has no currency`);
      assert.equal((await h.waitForChange(t, handle.change_set_id)).status, "succeeded", verb);
    }

    const offers = await answer<OfferList>(await h.call("GET", marketplace(t.id, "offers"), read), 200);
    assert.equal(offers.offers.length, 7, "the five seeded and the two made above");
    await answer(await h.call("GET", marketplace(t.id, `offers/${offers.offers[0]?.offer_id}`), read), 200);

    // The seller updates the stack: same role ARN, same external ID, no reconnect.
    await seller.role.update("current");
    const deadline = Date.now() + 15_000;
    let fixed = false;
    while (!fixed && Date.now() < deadline) {
      const a = await h.call("GET", marketplace(t.id, "agreements"), read);
      const c = (await (await h.call("GET", marketplace(t.id, "seller/currencies"), read)).json()) as SellerCurrencies;
      // Updated, the role reads the Seller entity: still undetermined, now because AWS documents no field.
      fixed = a.status === 200 && !c.determined && c.reason_code === "NOT_DOCUMENTED_BY_AWS";
      if (!fixed) await new Promise((r) => setTimeout(r, 250));
    }
    assert.ok(fixed, "agreements and currencies never worked after the stack update");
    const list = await answer<{ agreements: { status: string }[] }>(
      await h.call("GET", marketplace(t.id, "agreements"), read),
      200,
    );
    assert.equal(list.agreements.length, 6);
    await answer(
      await h.call("POST", marketplace(t.id, "offers"), { as: t.admin, body: offerRequest(productId) }),
      202,
    );
  });
});
