import assert from "node:assert/strict";
import { SearchAgreementsCommand } from "@aws-sdk/client-marketplace-agreement";
import { DescribeEntityCommand, ListEntitiesCommand } from "@aws-sdk/client-marketplace-catalog";
import { describe, it } from "vitest";
import { useSellerSession } from "../testing/seller-fixture.ts";
import { rejection } from "../testing/seller-session.ts";

const Catalog = "AWSMarketplace";
const proposer = [
  { name: "PartyType", values: ["Proposer"] },
  { name: "AgreementType", values: ["PurchaseAgreement"] },
];

describe("the role's inline policy decides, and the 2026-08-31 migration takes effect in place", () => {
  const seller = useSellerSession({ version: "legacy" });

  const sellerId = async () =>
    (await seller.catalog.send(new ListEntitiesCommand({ Catalog, EntityType: "Seller" }))).EntitySummaryList?.[0]
      ?.EntityId ?? "";

  it("with the legacy policy, products and offers work but agreements and the seller are denied", async () => {
    const products = await seller.catalog.send(new ListEntitiesCommand({ Catalog, EntityType: "SaaSProduct" }));
    const offers = await seller.catalog.send(new ListEntitiesCommand({ Catalog, EntityType: "Offer" }));
    const offerId = offers.EntitySummaryList?.[0]?.EntityId ?? "";
    await seller.catalog.send(new DescribeEntityCommand({ Catalog, EntityId: offerId }));
    assert.ok((products.EntitySummaryList?.length ?? 0) > 0);

    const agreements = await rejection(seller.agreement.send(new SearchAgreementsCommand({ filters: proposer })));
    assert.equal(agreements.name, "AccessDeniedException");
    assert.equal(agreements.$metadata.httpStatusCode, 403);
    assert.match(
      agreements.message,
      /not authorized to perform: aws-marketplace:SearchAgreements because no identity-based policy allows/,
    );

    const id = await sellerId();
    const sellerErr = await rejection(seller.catalog.send(new DescribeEntityCommand({ Catalog, EntityId: id })));
    assert.equal(sellerErr.name, "AccessDeniedException");
    assert.match(
      sellerErr.message,
      new RegExp(`on resource: arn:aws:aws-marketplace:us-east-1:${seller.role.accountId}:AWSMarketplace/Seller/${id}`),
    );
  });

  it("after the stack update to the current template both work, with the role ARN and credentials unchanged", async () => {
    const roleArn = await seller.role.update("current");
    assert.equal(roleArn, seller.role.roleArn);
    // No flush: the sandbox must notice the stack update by itself within a second.
    await new Promise((r) => setTimeout(r, 1000));
    const out = await seller.agreement.send(new SearchAgreementsCommand({ filters: proposer }));
    assert.ok((out.agreementViewSummaries?.length ?? 0) > 0);
    const details = await seller.catalog.send(new DescribeEntityCommand({ Catalog, EntityId: await sellerId() }));
    assert.equal(details.EntityType, "Seller@1.0");
  });

  it("refuses Marketplace calls signed with a Flowstate principal's own keys", async () => {
    const { catalogClient, principalCredentials } = await import("../testing/clients.ts");
    const direct = catalogClient(seller.endpoint, principalCredentials("backend"));
    const err = await rejection(direct.send(new ListEntitiesCommand({ Catalog, EntityType: "Offer" })));
    assert.equal(err.name, "AccessDeniedException");
  });
});
