import assert from "node:assert/strict";
import {
  DescribeEntityCommand,
  type EntityTypeFilters,
  ListEntitiesCommand,
} from "@aws-sdk/client-marketplace-catalog";
import { describe, it } from "vitest";
import { useSellerSession } from "../testing/seller-fixture.ts";
import { rejection } from "../testing/seller-session.ts";

const Catalog = "AWSMarketplace";

describe("Catalog DescribeEntity with the real SDK", () => {
  const seller = useSellerSession();

  const first = async (EntityType: string, EntityTypeFilters?: EntityTypeFilters) =>
    (await seller.catalog.send(new ListEntitiesCommand({ Catalog, EntityType, EntityTypeFilters })))
      .EntitySummaryList?.[0]?.EntityId ?? "";

  it("describes a private offer with its terms and rules, as a document and as a JSON string", async () => {
    const id = await first("Offer", {
      OfferFilters: { State: { ValueList: ["Released"] }, Targeting: { ValueList: ["BuyerAccounts"] } },
    });
    const out = await seller.catalog.send(new DescribeEntityCommand({ Catalog, EntityId: id }));
    assert.equal(out.EntityType, "Offer@1.0");
    assert.match(out.EntityIdentifier ?? "", new RegExp(`^${id}@\\d+$`));
    const doc = out.DetailsDocument as {
      State: string;
      Terms: { Type: string }[];
      Rules: { Type: string }[];
      ProductId: string;
    };
    assert.equal(doc.State, "Released");
    assert.ok(doc.Terms.some((t) => t.Type === "LegalTerm"));
    assert.deepEqual(doc.Rules.map((r) => r.Type).sort(), ["AvailabilityRule", "TargetingRule"]);
    // OfferEntityDetail has no PricingModel: only the pricing terms' types say how it is priced.
    const allowed = ["Id", "Name", "Description", "ProductId", "State", "MarkupPercentage", "PreExistingAgreement"];
    allowed.push("OfferSetId", "ResaleAuthorizationId", "Terms", "Rules");
    assert.deepEqual(
      Object.keys(doc).filter((k) => !allowed.includes(k)),
      [],
    );
    assert.deepEqual(JSON.parse(out.Details ?? "{}"), doc);
  });

  it("describes a SaaS product", async () => {
    const id = await first("SaaSProduct");
    const out = await seller.catalog.send(new DescribeEntityCommand({ Catalog, EntityId: id }));
    assert.equal(out.EntityType, "SaaSProduct@1.0");
    assert.ok((out.DetailsDocument as { Dimensions: unknown[] }).Dimensions.length > 0);
  });

  it("describes the seller with nothing AWS does not document: no payout currencies", async () => {
    const id = await first("Seller");
    const out = await seller.catalog.send(new DescribeEntityCommand({ Catalog, EntityId: id }));
    assert.equal(out.EntityType, "Seller@1.0");
    assert.deepEqual(out.DetailsDocument, {
      Id: id,
      AccountId: seller.role.accountId,
      Name: `Sandbox Seller ${seller.role.accountId}`,
    });
  });

  it("answers ResourceNotFoundException for an unknown id and ValidationException for a malformed one", async () => {
    const missing = await rejection(
      seller.catalog.send(new DescribeEntityCommand({ Catalog, EntityId: "offer-doesnotexist1" })),
    );
    assert.equal(missing.name, "ResourceNotFoundException");
    assert.equal(missing.$metadata.httpStatusCode, 404);
    const malformed = await rejection(
      seller.catalog.send(new DescribeEntityCommand({ Catalog, EntityId: "offer/../x" })),
    );
    assert.equal(malformed.name, "ValidationException");
  });
});
