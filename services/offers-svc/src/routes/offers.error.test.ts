import assert from "node:assert/strict";
import type { SellerCurrencies } from "@flowstate/contracts/rest/offers/currencies";
import type { ChangeHandle } from "@flowstate/contracts/rest/offers/offers";
import { afterAll, beforeAll, describe, it } from "vitest";
import { answer, connectedTenant, type Harness, startHarness } from "../testing/harness.ts";
import { dayFromNow, marketplace, offerRequest } from "../testing/offer-fixtures.ts";

let h: Harness;
beforeAll(async () => {
  h = await startHarness({ prefix: "offers_error", currencyTtlMs: 300 });
});
afterAll(() => h.close());

type Problem = { code: string; errors?: { path: string }[]; [k: string]: unknown };
const create = (tenantId: string, as: Parameters<Harness["call"]>[2], body: unknown) =>
  h.call("POST", marketplace(tenantId, "offers"), { ...as, body });

describe("offers-svc refuses what it can tell is wrong before AWS sees it", () => {
  it("answers 400 with field errors for a request that gets fields wrong, sending nothing", async () => {
    const { t, productId, seller } = await connectedTenant(h);
    const bad = await answer<Problem>(
      await create(
        t.id,
        { as: t.admin },
        {
          ...offerRequest(productId, { availability_end_date: dayFromNow(-2), release: true }),
          buyer_accounts: undefined,
          payment_schedule: [{ charge_date: "2026-02-30", amount: "ten" }],
        },
      ),
      400,
    );
    assert.equal(bad.code, "VALIDATION_FAILED");
    assert.deepEqual([...new Set(bad.errors?.map((e) => e.path))].sort(), [
      "availability_end_date",
      "buyer_accounts",
      "payment_schedule.0.amount",
      "payment_schedule.0.charge_date",
    ]);
    const rules = await answer<Problem>(
      await create(
        t.id,
        { as: t.admin },
        {
          ...offerRequest(productId, { availability_end_date: dayFromNow(-2), release: true }),
          buyer_accounts: undefined,
        },
      ),
      400,
    );
    assert.deepEqual(rules.errors?.map((e) => e.path).sort(), ["availability_end_date", "buyer_accounts"]);
    const account = (await (await fetch(seller.control)).json()) as { changeSets: unknown[] };
    assert.deepEqual(account.changeSets, []);
  });

  it("checks the product and its dimensions against the seller's account (400 with the field)", async () => {
    const { t, productId } = await connectedTenant(h);
    const unknown = await answer<Problem>(await create(t.id, { as: t.admin }, offerRequest("prod-doesnotexist1")), 400);
    assert.deepEqual(
      unknown.errors?.map((e) => e.path),
      ["product_id"],
    );
    const dims = await answer<Problem>(
      await create(
        t.id,
        { as: t.admin },
        {
          ...offerRequest(productId),
          pricing: { model: "contract", currency: "USD", price: "0.00", dimensions: [{ key: "Unicorns" }] },
        },
      ),
      400,
    );
    assert.deepEqual(
      dims.errors?.map((e) => e.path),
      ["pricing.dimensions.0.key"],
    );
  });

  it("cannot determine the seller's currencies (AWS documents no field for them): creates unchecked, and AWS refuses a currency the seller is not paid in", async () => {
    const { t, productId, seller } = await connectedTenant(h);
    const currencies = await answer<SellerCurrencies>(
      await h.call("GET", marketplace(t.id, "seller/currencies"), { as: t.member, role: "member" }),
      200,
    );
    assert.equal(currencies.determined, false);
    if (currencies.determined) return;
    assert.equal(currencies.reason_code, "NOT_DOCUMENTED_BY_AWS");
    assert.deepEqual(currencies.currencies, []);
    const priced = (currency: string) =>
      offerRequest(productId, {
        pricing: { model: "contract", currency, price: "0.00", dimensions: [{ key: "BasicService" }] },
      } as never);
    for (const currency of ["USD", "EUR"]) {
      const handle = await answer<ChangeHandle>(await create(t.id, { as: t.admin }, priced(currency)), 202);
      assert.equal(handle.currency_not_checked?.reason_code, "NOT_DOCUMENTED_BY_AWS");
      assert.equal((await h.waitForChange(t, handle.change_set_id)).status, "succeeded");
    }
    // The sandbox seller is paid in USD and EUR (its portal settings): AWS fails a GBP offer.
    const gbp = await answer<ChangeHandle>(await create(t.id, { as: t.admin }, priced("GBP")), 202);
    const failed = await h.waitForChange(t, gbp.change_set_id);
    assert.equal(failed.status, "failed");
    assert.deepEqual(
      [...new Set(failed.changes.flatMap((c) => c.errors.map((e) => e.code)))],
      ["INCOMPATIBLE_PAYMENT_SETTINGS"],
    );
    const put = await fetch(`${seller.control}/payout-currencies`, {
      method: "PUT",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ currencies: ["USD", "GBP"] }),
    });
    assert.equal(put.status, 200);
    const again = await answer<ChangeHandle>(await create(t.id, { as: t.admin }, priced("GBP")), 202);
    assert.equal((await h.waitForChange(t, again.change_set_id)).status, "succeeded");
  });

  it("refuses at once, submitting nothing, the release of a released offer and the expiry of a draft", async () => {
    const { t, seller } = await connectedTenant(h);
    const read = { as: t.member, role: "member" as const };
    const first = async (state: string) =>
      (
        await answer<{ offers: { offer_id: string; visibility: string }[] }>(
          await h.call("GET", marketplace(t.id, `offers?state=${state}&visibility=private`), read),
          200,
        )
      ).offers[0]!.offer_id;
    const changeSets = async () =>
      ((await (await fetch(seller.control)).json()) as { changeSets: unknown[] }).changeSets.length;
    const before = await changeSets();
    for (const [state, verb, code] of [
      ["released", "release", "OFFER_ALREADY_RELEASED"],
      ["expired", "release", "OFFER_ALREADY_RELEASED"],
      ["draft", "expire", "OFFER_NOT_RELEASED"],
    ] as const) {
      const refused = await answer<Problem>(
        await h.call("POST", marketplace(t.id, `offers/${await first(state)}/${verb}`), { as: t.admin }),
        409,
      );
      assert.equal(refused.code, code, `${verb} of a ${state} offer`);
      assert.equal(refused["state"], state);
    }
    assert.equal(await changeSets(), before, "no change set was submitted");
  });

  it("answers 404 for an offer the seller does not have, and 409 for a tenant that is not connected", async () => {
    const { t } = await connectedTenant(h);
    for (const path of ["offers/offer-doesnotexist1", "offers/prod-abc/clone"]) {
      const res = await h.call(path.endsWith("clone") ? "POST" : "GET", marketplace(t.id, path), {
        as: t.admin,
        body: path.endsWith("clone") ? {} : undefined,
      });
      assert.ok([400, 404].includes(res.status), `${path}: ${res.status}`);
    }
    const missing = await answer<Problem>(
      await h.call("POST", marketplace(t.id, "offers/offer-doesnotexist1/release"), { as: t.admin }),
      404,
    );
    assert.equal(missing.code, "NOT_FOUND");
    const loner = h.tenant();
    const notConnected = await answer<Problem>(
      await h.call("GET", marketplace(loner.id, "offers"), { as: loner.member, role: "member" }),
      409,
    );
    assert.equal(notConnected.code, "CONNECTOR_NOT_CONNECTED");
  });

  it("refuses an offer clone that would carry a past date, naming the field to override", async () => {
    const { t } = await connectedTenant(h);
    const account = (await (await fetch((await h.connect(t.id)).control)).json()) as {
      offers: { id: string; expired: boolean }[];
    };
    const expired = account.offers.find((o) => o.expired)?.id ?? "";
    const res = await answer<Problem>(
      await h.call("POST", marketplace(t.id, `offers/${expired}/clone`), { as: t.admin, body: {} }),
      400,
    );
    assert.ok(
      res.errors?.some((e) => e.path === "availability_end_date"),
      JSON.stringify(res),
    );
  });

  it("refuses a malformed Idempotency-Key and a key reused for another request", async () => {
    const { t, productId } = await connectedTenant(h);
    const bad = await answer<Problem>(
      await h.call("POST", marketplace(t.id, "offers"), {
        as: t.admin,
        body: offerRequest(productId),
        headers: { "idempotency-key": "has space" },
      }),
      400,
    );
    assert.equal(bad.errors?.[0]?.path, "headers.idempotency-key");
    const key = { "idempotency-key": `k-${Date.now()}` };
    await answer(
      await h.call("POST", marketplace(t.id, "offers"), { as: t.admin, body: offerRequest(productId), headers: key }),
      202,
    );
    const other = await answer<Problem>(
      await h.call("POST", marketplace(t.id, "offers"), {
        as: t.admin,
        body: offerRequest(productId, { name: "Other" }),
        headers: key,
      }),
      422,
    );
    assert.equal(other.code, "IDEMPOTENCY_KEY_REUSED");
  });
});
