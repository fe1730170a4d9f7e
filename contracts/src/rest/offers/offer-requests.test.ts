import assert from "node:assert/strict";
import { describe, it } from "vitest";
import { CloneOfferRequest, CreateOfferRequest } from "./offer-requests.ts";

const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
const valid = {
  product_id: "prod-abc123",
  name: "Acme",
  description: "One year",
  buyer_accounts: ["444455556666"],
  pricing: { model: "contract", currency: "USD", price: "0.00", dimensions: [{ key: "BasicService" }] },
  payment_schedule: [{ charge_date: day(40), amount: "100.00" }],
  legal_terms: { eula: { type: "standard" } },
  validity: { duration: "P12M" },
  availability_end_date: day(30),
};
const paths = (input: unknown) =>
  (CreateOfferRequest.safeParse(input).error?.issues ?? []).map((i) => i.path.join(".")).sort();

describe("the create-offer request", () => {
  it("accepts a complete private offer and fills the defaults", () => {
    const parsed = CreateOfferRequest.parse(valid);
    assert.equal(parsed.release, false);
    assert.deepEqual(parsed.pricing, { ...valid.pricing, dimensions: [{ key: "BasicService", quantity: 1 }] });
  });

  it("refuses a day that matches the format but no calendar (month 13, day 45, letters) as a field error, never a throw", () => {
    for (const day of ["2026-13-45", "2026-00-10", "9999-99-99", "Acme\u202Agpj.exe"])
      assert.deepEqual([...new Set(paths({ ...valid, availability_end_date: day }))], ["availability_end_date"], day);
  });

  it("reports every shape error against its field", () => {
    assert.deepEqual(
      paths({
        ...valid,
        product_id: "p1",
        buyer_accounts: ["12345"],
        pricing: { model: "contract", currency: "CAD", price: "1.234", dimensions: [] },
        availability_end_date: "2026-02-30",
        extra: true,
      }),
      [
        "",
        "availability_end_date",
        "buyer_accounts.0",
        "pricing.currency",
        "pricing.dimensions",
        "pricing.price",
        "product_id",
      ],
    );
  });

  it("applies the rules a release and the calendar impose", () => {
    const { buyer_accounts: _, ...noBuyers } = valid;
    assert.deepEqual(paths({ ...noBuyers, release: true }), ["buyer_accounts"]);
    assert.deepEqual(paths(noBuyers), []);
    assert.deepEqual(paths({ ...valid, buyer_accounts: ["444455556666", "444455556666"] }), ["buyer_accounts"]);
    assert.deepEqual(paths({ ...valid, availability_end_date: day(-1) }), ["availability_end_date"]);
    assert.deepEqual(
      paths({
        ...valid,
        payment_schedule: [
          { charge_date: day(50), amount: "1" },
          { charge_date: day(-2), amount: "1" },
        ],
      }),
      ["payment_schedule.1.charge_date", "payment_schedule.1.charge_date"],
    );
    assert.deepEqual(paths({ ...valid, validity: { start_date: day(10), end_date: day(5) } }), ["validity.start_date"]);
    assert.deepEqual(
      paths({
        ...valid,
        pricing: { model: "usage", currency: "USD", rates: [{ dimension_key: "Requests", price: "0.1" }] },
      }),
      ["payment_schedule"],
    );
  });

  it("takes a clone's overrides, all optional, and refuses unknown members", () => {
    assert.equal(CloneOfferRequest.parse({}).expire_original, false);
    assert.equal(CloneOfferRequest.safeParse({ payment_schedule: null }).success, true);
    assert.equal(CloneOfferRequest.safeParse({ product_id: "prod-x" }).success, false);
  });
});
