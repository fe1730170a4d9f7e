import assert from "node:assert/strict";
import { CreateOfferRequest } from "@flowstate/contracts/rest/offers/offer-requests";
import { describe, it } from "vitest";
import { dayFromNow, offerRequest } from "../testing/offer-fixtures.ts";
import { createOfferChanges, expireOfferChanges, releaseOfferChanges, yesterday } from "./change-sets.ts";
import { readTerms } from "./terms.ts";

const ref = { Type: "Offer@1.0", Identifier: "$CreateOffer.Entity.Identifier" };

describe("typed offer requests as change sets", () => {
  it("builds AWS's reference private-offer change set, in its order, with the release last", () => {
    const request = CreateOfferRequest.parse(offerRequest("prod-abc123", { release: true }));
    const changes = createOfferChanges(request);
    assert.deepEqual(
      changes.map((c) => c.ChangeType),
      [
        "CreateOffer",
        "UpdateInformation",
        "UpdateTargeting",
        "UpdatePricingTerms",
        "UpdateValidityTerms",
        "UpdatePaymentScheduleTerms",
        "UpdateLegalTerms",
        "UpdateAvailability",
        "ReleaseOffer",
      ],
    );
    assert.deepEqual(changes[0], {
      ChangeType: "CreateOffer",
      ChangeName: "CreateOffer",
      Entity: { Type: "Offer@1.0" },
      DetailsDocument: { ProductId: "prod-abc123" },
    });
    for (const c of changes.slice(1)) assert.deepEqual(c.Entity, ref);
    assert.deepEqual(changes[3]?.DetailsDocument, {
      PricingModel: "Contract",
      Terms: [
        {
          Type: "FixedUpfrontPricingTerm",
          CurrencyCode: "USD",
          Price: "0.00",
          Grants: [{ DimensionKey: "BasicService", MaxQuantity: 1 }],
        },
      ],
    });
    assert.deepEqual(changes[5]?.DetailsDocument, {
      Terms: [
        {
          Type: "PaymentScheduleTerm",
          CurrencyCode: "USD",
          Schedule: [{ ChargeDate: dayFromNow(40), ChargeAmount: "12000.00" }],
        },
      ],
    });
    assert.deepEqual(changes[8]?.DetailsDocument, {});
  });

  it("leaves out targeting and the schedule a draft does not have, and prices usage with rate cards", () => {
    const { buyer_accounts: _b, payment_schedule: _p, ...rest } = offerRequest("prod-abc123");
    const request = CreateOfferRequest.parse({
      ...rest,
      pricing: { model: "usage", currency: "USD", rates: [{ dimension_key: "Requests", price: "0.10" }] },
      validity: { start_date: dayFromNow(1), end_date: dayFromNow(365) },
      legal_terms: { eula: { type: "custom", url: "https://example.com/eula.pdf" } },
    });
    const changes = createOfferChanges(request);
    assert.ok(
      !changes.some((c) => c.ChangeType === "UpdateTargeting" || c.ChangeType === "UpdatePaymentScheduleTerms"),
    );
    const terms = changes.flatMap((c) => ((c.DetailsDocument as { Terms?: unknown[] })?.Terms ?? []) as never[]);
    assert.deepEqual(readTerms(terms), {
      other: [],
      pricing: request.pricing,
      validity: request.validity,
      legal_terms: request.legal_terms,
    });
  });

  it("reads AWS terms back into the typed shape, naming what it does not type", () => {
    const request = CreateOfferRequest.parse(offerRequest("prod-abc123"));
    const terms = createOfferChanges(request).flatMap(
      (c) => ((c.DetailsDocument as { Terms?: unknown[] })?.Terms ?? []) as never[],
    );
    const read = readTerms([...terms, { Type: "SupportTerm", RefundPolicy: "None" }]);
    assert.deepEqual(read.pricing, request.pricing);
    assert.deepEqual(read.payment_schedule, request.payment_schedule);
    assert.deepEqual(read.other, ["SupportTerm"]);
  });

  it("releases with an empty document and expires with yesterday's date (there is no ExpireOffer)", () => {
    assert.deepEqual(releaseOfferChanges("offer-1"), [
      { ChangeType: "ReleaseOffer", Entity: { Type: "Offer@1.0", Identifier: "offer-1" }, DetailsDocument: {} },
    ]);
    const now = Date.parse("2026-03-01T00:30:00Z");
    assert.equal(yesterday(now), "2026-02-28");
    assert.deepEqual(expireOfferChanges("offer-1", now)[0]?.DetailsDocument, { AvailabilityEndDate: "2026-02-28" });
  });
});
