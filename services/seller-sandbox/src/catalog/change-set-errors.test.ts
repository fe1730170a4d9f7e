import assert from "node:assert/strict";
import { type Change, ListEntitiesCommand, StartChangeSetCommand } from "@aws-sdk/client-marketplace-catalog";
import { beforeAll, describe, it } from "vitest";
import { privateOfferChanges } from "../testing/change-sets.ts";
import { useSellerSession } from "../testing/seller-fixture.ts";
import { rejection } from "../testing/seller-session.ts";
import { signedFetch } from "../testing/signed-fetch.ts";

const Catalog = "AWSMarketplace";

describe("StartChangeSet refuses bad requests synchronously with AWS's errors", () => {
  const seller = useSellerSession();
  let productId: string;
  let offerId: string;
  beforeAll(async () => {
    const list = async (EntityType: string) =>
      (await seller.catalog.send(new ListEntitiesCommand({ Catalog, EntityType }))).EntitySummaryList ?? [];
    productId = (await list("SaaSProduct")).find((p) => p.Visibility === "Public")?.EntityId ?? "";
    offerId = (await list("Offer")).find((o) => o.OfferSummary?.State === "Draft")?.EntityId ?? "";
  });

  const start = (ChangeSet: Change[], extra: object = {}) =>
    seller.catalog.send(new StartChangeSetCommand({ Catalog, ChangeSet, ...extra }));
  const onOffer = { Type: "Offer@1.0", Identifier: "" };

  it("answers 422 ValidationException for each kind of malformed change", async () => {
    onOffer.Identifier = offerId;
    const bad: [string, Change[]][] = [
      [
        "both Details and DetailsDocument",
        [{ ChangeType: "UpdateInformation", Entity: onOffer, Details: '{"Name":"x"}', DetailsDocument: { Name: "x" } }],
      ],
      ["neither Details nor DetailsDocument", [{ ChangeType: "UpdateInformation", Entity: onOffer }]],
      ["an unknown change type", [{ ChangeType: "ExpireOffer", Entity: onOffer, DetailsDocument: {} }]],
      [
        "a change type that breaks the pattern",
        [{ ChangeType: "update-information", Entity: onOffer, DetailsDocument: {} }],
      ],
      [
        "an impossible date",
        [{ ChangeType: "UpdateAvailability", Entity: onOffer, DetailsDocument: { AvailabilityEndDate: "2026-02-30" } }],
      ],
      [
        "a date in another format",
        [{ ChangeType: "UpdateAvailability", Entity: onOffer, DetailsDocument: { AvailabilityEndDate: "31/12/2026" } }],
      ],
      [
        "a bad charge date",
        [
          {
            ChangeType: "UpdatePaymentScheduleTerms",
            Entity: onOffer,
            DetailsDocument: {
              Terms: [
                {
                  Type: "PaymentScheduleTerm",
                  CurrencyCode: "USD",
                  Schedule: [{ ChargeDate: "tomorrow", ChargeAmount: "1.00" }],
                },
              ],
            },
          },
        ],
      ],
      ["ReleaseOffer with details", [{ ChangeType: "ReleaseOffer", Entity: onOffer, DetailsDocument: { Now: true } }]],
      ["Details that are not JSON", [{ ChangeType: "UpdateInformation", Entity: onOffer, Details: "{Name: x}" }]],
      [
        "a reference to no earlier change",
        [
          {
            ChangeType: "UpdateInformation",
            Entity: { Type: "Offer@1.0", Identifier: "$Nope.Entity.Identifier" },
            DetailsDocument: { Name: "x" },
          },
        ],
      ],
      [
        "the same change type twice on one entity",
        [
          { ChangeType: "UpdateInformation", Entity: onOffer, DetailsDocument: { Name: "a" } },
          { ChangeType: "UpdateInformation", Entity: onOffer, DetailsDocument: { Name: "b" } },
        ],
      ],
      [
        "an unsupported entity type",
        [
          {
            ChangeType: "UpdateInformation",
            Entity: { Type: "AmiProduct@1.0", Identifier: "prod-x" },
            DetailsDocument: {},
          },
        ],
      ],
      [
        "a buyer account that is not 12 digits",
        [
          {
            ChangeType: "UpdateTargeting",
            Entity: onOffer,
            DetailsDocument: { PositiveTargeting: { BuyerAccounts: ["12345"] } },
          },
        ],
      ],
      ["an empty change set", []],
    ];
    for (const [what, changes] of bad) {
      const err = await rejection(start(changes));
      assert.equal(err.name, "ValidationException", what);
      assert.equal(err.$metadata.httpStatusCode, 422, what);
    }
  });

  it("answers ValidationException, not a crash, for a body that is not JSON", async () => {
    const r = await signedFetch(seller.endpoint, seller.credentials, {
      method: "POST",
      path: "/StartChangeSet",
      body: '{"Catalog": "AWSMarketplace", "ChangeSet": [',
    });
    assert.equal(r.status, 422);
    assert.equal(r.errorType, "ValidationException");
    assert.match(JSON.parse(r.body).Message, /not valid JSON/);
  });

  it("answers ResourceNotFoundException for an unknown offer or product", async () => {
    const offer = await rejection(
      start([
        {
          ChangeType: "UpdateInformation",
          Entity: { Type: "Offer@1.0", Identifier: "offer-aaaaaaaaaaaaa" },
          DetailsDocument: { Name: "x" },
        },
      ]),
    );
    assert.equal(offer.name, "ResourceNotFoundException");
    const product = await rejection(
      start([
        {
          ChangeType: "CreateOffer",
          Entity: { Type: "Offer@1.0" },
          DetailsDocument: { ProductId: "prod-aaaaaaaaaaaaa" },
        },
      ]),
    );
    assert.equal(product.name, "ResourceNotFoundException");
  });

  it("is idempotent on ClientRequestToken and refuses the token for another request", async () => {
    const changes = privateOfferChanges(productId);
    const token = crypto.randomUUID();
    const first = await start(changes, { ClientRequestToken: token });
    const again = await start(changes, { ClientRequestToken: token });
    assert.equal(again.ChangeSetId, first.ChangeSetId);
    // The same request with its members in another order (another client's serializer) is the same request.
    const reordered = changes.map((c) => Object.fromEntries(Object.entries(c).reverse()) as typeof c);
    assert.equal((await start(reordered, { ClientRequestToken: token })).ChangeSetId, first.ChangeSetId);
    // Arriving together while the role's policies are being read (authorization awaits the
    // emulator), they still start one change set.
    await fetch(`${seller.endpoint}/_sandbox/iam/flush`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: "{}",
    });
    const together = crypto.randomUUID();
    const burst = await Promise.all(
      Array.from({ length: 8 }, () => start(privateOfferChanges(productId), { ClientRequestToken: together })),
    );
    assert.equal(new Set(burst.map((b) => b.ChangeSetId)).size, 1);
    const other = await rejection(
      start(privateOfferChanges(productId, { name: "Other" }), { ClientRequestToken: token }),
    );
    assert.equal(other.name, "ValidationException");
  });

  it("answers 423 ResourceInUseException while an open change set holds the offer", async () => {
    await fetch(`${seller.control}/timing`, { method: "PUT", body: JSON.stringify({ changeSetStepMs: 2000 }) });
    onOffer.Identifier = offerId;
    await start([{ ChangeType: "UpdateInformation", Entity: onOffer, DetailsDocument: { Name: "first" } }]);
    const err = await rejection(
      start([
        {
          ChangeType: "UpdateValidityTerms",
          Entity: onOffer,
          DetailsDocument: { Terms: [{ Type: "ValidityTerm", AgreementDuration: "P6M" }] },
        },
      ]),
    );
    assert.equal(err.name, "ResourceInUseException");
    assert.equal(err.$metadata.httpStatusCode, 423);
    await fetch(`${seller.control}/timing`, { method: "PUT", body: JSON.stringify({ changeSetStepMs: 50 }) });
  });
});
