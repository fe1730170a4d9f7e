import assert from "node:assert/strict";
import { DescribeEntityCommand, ListEntitiesCommand } from "@aws-sdk/client-marketplace-catalog";
import { beforeAll, describe, it } from "vitest";
import { createdOfferId, dayFromNow, privateOfferChanges, runChangeSet } from "../testing/change-sets.ts";
import { useSellerSession } from "../testing/seller-fixture.ts";
import { testSettings } from "../testing/start-sandbox.ts";

const Catalog = "AWSMarketplace";
type OfferDoc = {
  State: string;
  Name?: string;
  Rules: { Type: string; AvailabilityEndDate?: string }[];
  Terms: { Type: string }[];
};

describe("a private offer goes draft → released → expired through change sets", () => {
  const seller = useSellerSession();
  let productId: string;
  beforeAll(async () => {
    const products = await seller.catalog.send(
      new ListEntitiesCommand({
        Catalog,
        EntityType: "SaaSProduct",
        EntityTypeFilters: { SaaSProductFilters: { Visibility: { ValueList: ["Public"] } } },
      }),
    );
    productId = products.EntitySummaryList?.[0]?.EntityId ?? "";
  });

  const stepMs = (changeSetStepMs: number) =>
    fetch(`${seller.control}/timing`, { method: "PUT", body: JSON.stringify({ changeSetStepMs }) });
  const describeOffer = async (id: string) => {
    const out = await seller.catalog.send(new DescribeEntityCommand({ Catalog, EntityId: id }));
    return { doc: out.DetailsDocument as OfferDoc, identifier: out.EntityIdentifier };
  };
  const summary = async (id: string) =>
    (
      await seller.catalog.send(
        new ListEntitiesCommand({
          Catalog,
          EntityType: "Offer",
          EntityTypeFilters: { OfferFilters: { EntityId: { ValueList: [id] } } },
        }),
      )
    ).EntitySummaryList?.[0]?.OfferSummary;

  it("walks through every state, with DescribeEntity showing each", async () => {
    // Slow enough that polling (every 10 ms) sees each status even on a loaded machine: at 150 ms
    // the first DescribeChangeSet sometimes came after PREPARING, and at 600 ms fresh-clone CI once
    // saw no APPLYING (one poll round trip took longer than the step while the whole suite ran).
    // The other change sets run at the fast default.
    await stepMs(2_500);
    const created = await runChangeSet(seller.catalog, privateOfferChanges(productId)).finally(() =>
      stepMs(testSettings().SANDBOX_CHANGE_SET_STEP_MS),
    );
    assert.deepEqual(created.seen, ["PREPARING", "APPLYING", "SUCCEEDED"]);
    assert.ok(created.final.EndTime && created.final.StartTime);
    assert.ok(created.final.ChangeSet?.every((c) => c.ErrorDetailList?.length === 0));
    const offerId = createdOfferId(created.final);
    assert.match(offerId, /^offer-[a-z0-9]{13}$/);

    const draft = await describeOffer(offerId);
    assert.equal(draft.doc.State, "Draft");
    assert.equal(draft.doc.Name, "Test private offer");
    assert.deepEqual(draft.doc.Terms.map((t) => t.Type).sort(), [
      "FixedUpfrontPricingTerm",
      "LegalTerm",
      "PaymentScheduleTerm",
      "ValidityTerm",
    ]);
    assert.equal((await summary(offerId))?.State, "Draft");

    const released = await runChangeSet(seller.catalog, [
      { ChangeType: "ReleaseOffer", Entity: { Type: "Offer@1.0", Identifier: offerId }, DetailsDocument: {} },
    ]);
    assert.equal(released.final.Status, "SUCCEEDED");
    const live = await describeOffer(offerId);
    assert.equal(live.doc.State, "Released");
    assert.notEqual(live.identifier, draft.identifier, "the revision moves on");
    const liveSummary = await summary(offerId);
    assert.equal(liveSummary?.State, "Released");
    assert.ok(liveSummary?.ReleaseDate);

    const yesterday = dayFromNow(-1);
    const expired = await runChangeSet(seller.catalog, [
      {
        ChangeType: "UpdateAvailability",
        Entity: { Type: "Offer@1.0", Identifier: offerId },
        DetailsDocument: { AvailabilityEndDate: yesterday },
      },
    ]);
    assert.equal(expired.final.Status, "SUCCEEDED");
    const gone = await describeOffer(offerId);
    const rule = gone.doc.Rules.find((r) => r.Type === "AvailabilityRule");
    assert.equal(rule?.AvailabilityEndDate, `${yesterday}T23:59:59.999Z`);
    assert.ok(Date.parse(rule?.AvailabilityEndDate ?? "") < Date.now());
    assert.equal((await summary(offerId))?.AvailabilityEndDate, `${yesterday}T23:59:59Z`);
  });

  it("fails a release that lacks buyers, an end date and terms, with each reason, and applies nothing", async () => {
    const out = await runChangeSet(seller.catalog, [
      {
        ChangeType: "CreateOffer",
        ChangeName: "CreateOfferChange",
        Entity: { Type: "Offer@1.0" },
        DetailsDocument: { ProductId: productId },
      },
      {
        ChangeType: "ReleaseOffer",
        Entity: { Type: "Offer@1.0", Identifier: "$CreateOfferChange.Entity.Identifier" },
        DetailsDocument: {},
      },
    ]);
    assert.equal(out.final.Status, "FAILED");
    assert.equal(out.final.FailureCode, "CLIENT_ERROR");
    const codes = out.final.ChangeSet?.[1]?.ErrorDetailList?.map((e) => e.ErrorCode).sort();
    assert.deepEqual(codes, [
      "INVALID_BUYER_ACCOUNTS",
      "MISSING_AVAILABILITY_END_DATE",
      "MISSING_MANDATORY_TERMS",
      "MISSING_NAME",
    ]);
    const id = createdOfferId(out.final);
    const err = await seller.catalog.send(new DescribeEntityCommand({ Catalog, EntityId: id })).catch((e: Error) => e);
    assert.equal((err as Error).name, "ResourceNotFoundException", "a failed change set creates nothing");
  });

  it("fails an offer in a currency the seller cannot be paid in, until the seller adds it", async () => {
    const gbp = [...privateOfferChanges(productId, { currency: "GBP" }), releaseRef()];
    const refused = await runChangeSet(seller.catalog, gbp);
    assert.equal(refused.final.Status, "FAILED");
    const codes = refused.final.ChangeSet?.flatMap((c) => c.ErrorDetailList ?? []).map((e) => e.ErrorCode);
    assert.ok(codes?.includes("INCOMPATIBLE_PAYMENT_SETTINGS"));

    await fetch(`${seller.control}/payout-currencies`, {
      method: "PUT",
      body: JSON.stringify({ currencies: ["USD", "EUR", "GBP"] }),
    });
    const accepted = await runChangeSet(seller.catalog, gbp);
    assert.equal(accepted.final.Status, "SUCCEEDED");
  });

  it("after release, refuses targeting and term changes but accepts information, validity and availability", async () => {
    const made = await runChangeSet(seller.catalog, [...privateOfferChanges(productId), releaseRef()]);
    assert.equal(made.final.Status, "SUCCEEDED");
    const id = createdOfferId(made.final);
    const on = { Type: "Offer@1.0", Identifier: id };
    const refused = await runChangeSet(seller.catalog, [
      {
        ChangeType: "UpdateTargeting",
        Entity: on,
        DetailsDocument: { PositiveTargeting: { BuyerAccounts: ["777788889999"] } },
      },
      {
        ChangeType: "UpdateLegalTerms",
        Entity: on,
        DetailsDocument: {
          Terms: [{ Type: "LegalTerm", Documents: [{ Type: "StandardEula", Version: "2022-07-14" }] }],
        },
      },
    ]);
    assert.equal(refused.final.Status, "FAILED");
    assert.deepEqual(
      refused.final.ChangeSet?.map((c) => c.ErrorDetailList?.[0]?.ErrorCode),
      ["INCOMPATIBLE_TARGETING", "INCOMPATIBLE_TERMS"],
    );
    const allowed = await runChangeSet(seller.catalog, [
      { ChangeType: "UpdateInformation", Entity: on, DetailsDocument: { Name: "Renamed after release" } },
      {
        ChangeType: "UpdateValidityTerms",
        Entity: on,
        DetailsDocument: { Terms: [{ Type: "ValidityTerm", AgreementDuration: "P24M" }] },
      },
      { ChangeType: "UpdateAvailability", Entity: on, DetailsDocument: { AvailabilityEndDate: dayFromNow(90) } },
    ]);
    assert.equal(allowed.final.Status, "SUCCEEDED");
    assert.equal((await describeOffer(id)).doc.Name, "Renamed after release");
  });
});

function releaseRef() {
  return {
    ChangeType: "ReleaseOffer",
    Entity: { Type: "Offer@1.0", Identifier: "$CreateOfferChange.Entity.Identifier" },
    DetailsDocument: {},
  };
}
