import assert from "node:assert/strict";
import { ListEntitiesCommand, paginateListEntities } from "@aws-sdk/client-marketplace-catalog";
import { describe, it } from "vitest";
import { useSellerSession } from "../testing/seller-fixture.ts";
import { rejection } from "../testing/seller-session.ts";

const Catalog = "AWSMarketplace";

describe("Catalog ListEntities with the real SDK", () => {
  const seller = useSellerSession();

  it("lists the seller's SaaS products with their summaries and ARNs", async () => {
    const out = await seller.catalog.send(new ListEntitiesCommand({ Catalog, EntityType: "SaaSProduct" }));
    const list = out.EntitySummaryList ?? [];
    assert.equal(list.length, 4);
    for (const p of list) {
      assert.match(p.EntityId ?? "", /^prod-[a-z0-9]{13}$/);
      assert.equal(
        p.EntityArn,
        `arn:aws:aws-marketplace:us-east-1:${seller.role.accountId}:AWSMarketplace/SaaSProduct/${p.EntityId}`,
      );
      assert.equal(p.SaaSProductSummary?.ProductTitle, p.Name);
      assert.match(p.LastModifiedDate ?? "", /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    }
  });

  it("filters products by visibility and by a title wildcard", async () => {
    const pub = await seller.catalog.send(
      new ListEntitiesCommand({
        Catalog,
        EntityType: "SaaSProduct",
        EntityTypeFilters: { SaaSProductFilters: { Visibility: { ValueList: ["Public"] } } },
      }),
    );
    assert.deepEqual(
      pub.EntitySummaryList?.map((p) => p.Visibility),
      ["Public", "Public"],
    );
    const labs = await seller.catalog.send(
      new ListEntitiesCommand({
        Catalog,
        EntityType: "SaaSProduct",
        EntityTypeFilters: { SaaSProductFilters: { ProductTitle: { WildCardValue: "labs" } } },
      }),
    );
    assert.deepEqual(
      labs.EntitySummaryList?.map((p) => p.Name),
      ["Flowstate Labs"],
    );
  });

  it("lists private offers with targeting, state and buyer accounts", async () => {
    const out = await seller.catalog.send(
      new ListEntitiesCommand({
        Catalog,
        EntityType: "Offer",
        EntityTypeFilters: { OfferFilters: { Targeting: { ValueList: ["BuyerAccounts"] } } },
      }),
    );
    const offers = out.EntitySummaryList ?? [];
    assert.equal(offers.length, 3);
    for (const o of offers) {
      assert.equal(o.Visibility, "Private");
      assert.deepEqual(o.OfferSummary?.Targeting, ["BuyerAccounts"]);
      assert.match(o.OfferSummary?.BuyerAccounts?.[0] ?? "", /^\d{12}$/);
    }
    const states = offers.map((o) => o.OfferSummary?.State).sort();
    assert.deepEqual(states, ["Draft", "Released", "Released"]);
    const drafts = await seller.catalog.send(
      new ListEntitiesCommand({
        Catalog,
        EntityType: "Offer",
        EntityTypeFilters: { OfferFilters: { State: { ValueList: ["Draft"] } } },
      }),
    );
    assert.equal(drafts.EntitySummaryList?.length, 1);
  });

  it("finds expired offers by an AvailabilityEndDate range", async () => {
    const now = new Date().toISOString().slice(0, 19) + "Z";
    const out = await seller.catalog.send(
      new ListEntitiesCommand({
        Catalog,
        EntityType: "Offer",
        EntityTypeFilters: { OfferFilters: { AvailabilityEndDate: { DateRange: { BeforeValue: now } } } },
      }),
    );
    assert.equal(out.EntitySummaryList?.length, 1);
    assert.match(out.EntitySummaryList?.[0]?.Name ?? "", /expired/);
  });

  it("pages with MaxResults and NextToken until every entity was seen once", async () => {
    const ids: string[] = [];
    for await (const page of paginateListEntities(
      { client: seller.catalog, pageSize: 2 },
      { Catalog, EntityType: "Offer" },
    )) {
      assert.ok((page.EntitySummaryList?.length ?? 0) <= 2);
      ids.push(...(page.EntitySummaryList ?? []).map((o) => o.EntityId ?? ""));
    }
    assert.equal(ids.length, 5);
    assert.equal(new Set(ids).size, 5);
  });

  it("sorts offers by name when asked", async () => {
    const out = await seller.catalog.send(
      new ListEntitiesCommand({
        Catalog,
        EntityType: "Offer",
        EntityTypeSort: { OfferSort: { SortBy: "Name", SortOrder: "DESCENDING" } },
      }),
    );
    const names = out.EntitySummaryList?.map((o) => o.Name ?? "") ?? [];
    assert.deepEqual(names, [...names].sort().reverse());
  });

  it("takes every OfferFilters and OfferSort member of the model", async () => {
    const list = async (OfferFilters: object, SortBy?: string) =>
      (
        await seller.catalog.send(
          new ListEntitiesCommand({
            Catalog,
            EntityType: "Offer",
            EntityTypeFilters: { OfferFilters },
            ...(SortBy ? { EntityTypeSort: { OfferSort: { SortBy: SortBy as never, SortOrder: "ASCENDING" } } } : {}),
          }),
        )
      ).EntitySummaryList ?? [];
    const mine = await list({ CreatedBySource: { ValueList: ["Seller"] } });
    assert.equal(mine.length, 5);
    assert.ok(mine.every((o) => o.OfferSummary?.CreatedBySource === "Seller"));
    // The sandbox seller has no resale authorizations, offer sets or replacement offers: valid
    // filters on them match nothing.
    const none = [
      { CreatedBySource: { ValueList: ["AwsMarketplace"] } },
      { ResaleAuthorizationId: { ValueList: ["resaleauthz-abc123"] } },
      { OfferSetId: { ValueList: ["offerset-abc123"] } },
      { TargetAgreementId: { ValueList: ["agmt-abc123"] } },
      { TargetAgreementIntent: { ValueList: ["Renew"] } },
    ];
    for (const f of none) assert.deepEqual(await list(f), [], JSON.stringify(f));
    for (const by of [
      "ResaleAuthorizationId",
      "OfferSetId",
      "TargetAgreementId",
      "TargetAgreementIntent",
      "CreatedBySource",
    ]) {
      assert.equal((await list({}, by)).length, 5, by);
    }
  });

  it("refuses values the model's patterns and enums do not allow in the newer offer filters", async () => {
    const bad = [
      { OfferSetId: { ValueList: ["set-1"] } },
      { ResaleAuthorizationId: { ValueList: ["-bad-"] } },
      { TargetAgreementIntent: { ValueList: ["Cancel"] } },
      { CreatedBySource: { ValueList: ["Seller", "AwsMarketplace", "Seller"] } },
      { TargetAgreementId: { ValueList: [] } },
    ];
    for (const OfferFilters of bad) {
      const err = await rejection(
        seller.catalog.send(
          new ListEntitiesCommand({ Catalog, EntityType: "Offer", EntityTypeFilters: { OfferFilters } as never }),
        ),
      );
      assert.equal(err.name, "ValidationException", JSON.stringify(OfferFilters));
      assert.equal(err.$metadata.httpStatusCode, 422);
    }
  });

  it("lists the seller entity", async () => {
    const out = await seller.catalog.send(new ListEntitiesCommand({ Catalog, EntityType: "Seller" }));
    assert.equal(out.EntitySummaryList?.length, 1);
    assert.match(out.EntitySummaryList?.[0]?.EntityId ?? "", /^seller-/);
  });

  it("answers ValidationException for bad MaxResults, dates, tokens, filters and entity types", async () => {
    const bad = [
      { Catalog, EntityType: "Offer", MaxResults: 51 },
      {
        Catalog,
        EntityType: "Offer",
        EntityTypeFilters: { OfferFilters: { ReleaseDate: { DateRange: { AfterValue: "2026-13-01" } } } },
      },
      { Catalog, EntityType: "Offer", NextToken: "bm90LW91cnM" },
      { Catalog, EntityType: "Offer", EntityTypeFilters: { SaaSProductFilters: {} } },
      { Catalog, EntityType: "Offer", FilterList: [{ Name: "Colour", ValueList: ["red"] }] },
      { Catalog, EntityType: "Offer", FilterList: [{ Name: "constructor", ValueList: ["x"] }] },
      { Catalog, EntityType: "Spaceship" },
      { Catalog: "Elsewhere", EntityType: "Offer" },
    ];
    for (const input of bad) {
      const err = await rejection(seller.catalog.send(new ListEntitiesCommand(input as never)));
      assert.equal(err.name, "ValidationException", JSON.stringify(input));
      assert.equal(err.$metadata.httpStatusCode, 422);
    }
  });

  it("refuses a second wildcard filter", async () => {
    const err = await rejection(
      seller.catalog.send(
        new ListEntitiesCommand({
          Catalog,
          EntityType: "Offer",
          EntityTypeFilters: { OfferFilters: { Name: { WildCardValue: "a" }, BuyerAccounts: { WildCardValue: "1" } } },
        }),
      ),
    );
    assert.equal(err.name, "ValidationException");
  });
});
