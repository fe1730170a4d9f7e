import assert from "node:assert/strict";
import type { SellerCurrencies } from "@flowstate/contracts/rest/offers/currencies";
import type { OfferList } from "@flowstate/contracts/rest/offers/offers";
import { captureLogs } from "@flowstate/shared/log/capture";
import { afterAll, beforeAll, describe, it } from "vitest";
import { answer, connectedTenant, type Harness, startHarness } from "../testing/harness.ts";
import { marketplace, offerRequest } from "../testing/offer-fixtures.ts";

const logs = captureLogs();
let h: Harness;
beforeAll(async () => {
  h = await startHarness({ prefix: "offers_legacy", logTo: logs.stream });
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
    const create = await answer<{ code: string }>(
      await h.call("POST", marketplace(t.id, "offers"), { as: t.admin, body: offerRequest(productId) }),
      422,
    );
    assert.equal(create.code, "CURRENCIES_UNDETERMINED");

    const offers = await answer<OfferList>(await h.call("GET", marketplace(t.id, "offers"), read), 200);
    assert.equal(offers.offers.length, 5);
    await answer(await h.call("GET", marketplace(t.id, `offers/${offers.offers[0]?.offer_id}`), read), 200);

    // The seller updates the stack: same role ARN, same external ID, no reconnect.
    await seller.role.update("current");
    const deadline = Date.now() + 15_000;
    let fixed = false;
    while (!fixed && Date.now() < deadline) {
      const a = await h.call("GET", marketplace(t.id, "agreements"), read);
      const c = (await (await h.call("GET", marketplace(t.id, "seller/currencies"), read)).json()) as SellerCurrencies;
      fixed = a.status === 200 && c.determined;
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
