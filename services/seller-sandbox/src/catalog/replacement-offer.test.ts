import assert from "node:assert/strict";
import { DescribeAgreementCommand } from "@aws-sdk/client-marketplace-agreement";
import { type Change, ListEntitiesCommand, StartChangeSetCommand } from "@aws-sdk/client-marketplace-catalog";
import { beforeAll, describe, it } from "vitest";
import { grantAgreementReads } from "../testing/agreement-reads.ts";
import { dayFromNow, waitForChangeSet } from "../testing/change-sets.ts";
import { useSellerSession } from "../testing/seller-fixture.ts";
import { rejection } from "../testing/seller-session.ts";

const Catalog = "AWSMarketplace";
const ref = "$CreateReplacementOfferChange.Entity.Identifier";
const on = (Identifier: string) => ({ Type: "Offer@1.0", Identifier });

/** AWS's "replacement private offer with contract pricing" example, shortened: no targeting (the agreement's buyer). */
const replacementChanges = (agreementId: string): Change[] => [
  {
    ChangeType: "CreateReplacementOffer",
    ChangeName: "CreateReplacementOfferChange",
    Entity: { Type: "Offer@1.0" },
    DetailsDocument: { AgreementId: agreementId, Name: "Replacement" },
  },
  { ChangeType: "UpdateInformation", Entity: on(ref), DetailsDocument: { Description: "New terms" } },
  {
    ChangeType: "UpdatePricingTerms",
    Entity: on(ref),
    DetailsDocument: {
      PricingModel: "Contract",
      Terms: [
        {
          Type: "FixedUpfrontPricingTerm",
          CurrencyCode: "USD",
          Price: "0.0",
          Grants: [{ DimensionKey: "BasicService", MaxQuantity: 1 }],
        },
      ],
    },
  },
  {
    ChangeType: "UpdateLegalTerms",
    Entity: on(ref),
    DetailsDocument: { Terms: [{ Type: "LegalTerm", Documents: [{ Type: "StandardEula", Version: "2022-07-14" }] }] },
  },
  {
    ChangeType: "UpdateValidityTerms",
    Entity: on(ref),
    DetailsDocument: { Terms: [{ Type: "ValidityTerm", AgreementDuration: "P12M" }] },
  },
  { ChangeType: "UpdateAvailability", Entity: on(ref), DetailsDocument: { AvailabilityEndDate: dayFromNow(30) } },
  { ChangeType: "ReleaseOffer", Entity: on(ref), DetailsDocument: {} },
];

describe("CreateReplacementOffer (agreement-based offer)", () => {
  const seller = useSellerSession();
  let agreement: { id: string; offerId: string; status: string };
  beforeAll(async () => {
    const view = (await (await fetch(seller.control)).json()) as {
      agreements: { id: string; offerId: string; status: string }[];
    };
    agreement = view.agreements.find((a) => a.status === "ACTIVE")!;
  });

  it("is refused at StartChangeSet with the interface's policy: the dependent DescribeAgreement is not granted", async () => {
    const err = await rejection(
      seller.catalog.send(new StartChangeSetCommand({ Catalog, ChangeSet: replacementChanges(agreement.id) })),
    );
    assert.equal(err.name, "AccessDeniedException");
    assert.match(err.message, /not authorized to perform: aws-marketplace:DescribeAgreement/);
  });

  it("with the agreement reads granted: a released offer to the agreement's buyer, targeting the agreement, which acceptance replaces", async () => {
    await grantAgreementReads(seller.endpoint, seller.role.roleArn);
    const missing = await rejection(
      seller.catalog.send(
        new StartChangeSetCommand({ Catalog, ChangeSet: replacementChanges("agmt-doesnotexist0000000000") }),
      ),
    );
    assert.equal(missing.name, "ResourceNotFoundException");

    const { ChangeSetId } = await seller.catalog.send(
      new StartChangeSetCommand({ Catalog, ChangeSet: replacementChanges(agreement.id) }),
    );
    const { final } = await waitForChangeSet(seller.catalog, ChangeSetId ?? "");
    assert.equal(final.Status, "SUCCEEDED", JSON.stringify(final.ChangeSet));
    const offerId = final.ChangeSet?.find((c) => c.ChangeType === "CreateReplacementOffer")?.Entity?.Identifier ?? "";
    assert.match(offerId, /^offer-/);

    const summary = (
      await seller.catalog.send(
        new ListEntitiesCommand({
          Catalog,
          EntityType: "Offer",
          EntityTypeFilters: { OfferFilters: { TargetAgreementId: { ValueList: [agreement.id] } } },
        }),
      )
    ).EntitySummaryList;
    assert.equal(summary?.length, 1);
    assert.equal(summary?.[0]?.EntityId, offerId.replace(/@\d+$/, ""));
    assert.equal(summary?.[0]?.OfferSummary?.TargetAgreementId, agreement.id);
    assert.equal(summary?.[0]?.OfferSummary?.State, "Released");
    const { acceptor } = await seller.agreement.send(new DescribeAgreementCommand({ agreementId: agreement.id }));
    assert.deepEqual(summary?.[0]?.OfferSummary?.BuyerAccounts, [acceptor?.accountId]);

    const accepted = await fetch(`${seller.control}/agreements`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ offerId: summary?.[0]?.EntityId }),
    });
    assert.equal(accepted.status, 201);
    const after = (await (await fetch(seller.control)).json()) as { agreements: { id: string; status: string }[] };
    assert.equal(after.agreements.find((a) => a.id === agreement.id)?.status, "REPLACED");
  });
});
