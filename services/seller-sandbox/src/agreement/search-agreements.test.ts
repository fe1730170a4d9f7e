import assert from "node:assert/strict";
import { paginateSearchAgreements, SearchAgreementsCommand } from "@aws-sdk/client-marketplace-agreement";
import { describe, it } from "vitest";
import { useSellerSession } from "../testing/seller-fixture.ts";
import { rejection } from "../testing/seller-session.ts";

const proposer = [
  { name: "PartyType", values: ["Proposer"] },
  { name: "AgreementType", values: ["PurchaseAgreement"] },
];

describe("Agreement SearchAgreements with the real SDK", () => {
  const seller = useSellerSession();

  it("lists the seller's purchase agreements as proposer, newest end first", async () => {
    const out = await seller.agreement.send(
      new SearchAgreementsCommand({ catalog: "AWSMarketplace", filters: proposer }),
    );
    const list = out.agreementViewSummaries ?? [];
    assert.equal(list.length, 6);
    for (const a of list) {
      assert.match(a.agreementId ?? "", /^agmt-[a-z0-9]{25}$/);
      assert.equal(a.proposer?.accountId, seller.role.accountId);
      assert.equal(a.agreementType, "PurchaseAgreement");
      assert.ok(a.startTime instanceof Date && a.acceptanceTime instanceof Date);
      assert.match(a.proposalSummary?.offerId ?? "", /^offer-/);
    }
    const ends = list.map((a) => a.endTime?.getTime() ?? Number.MAX_SAFE_INTEGER);
    assert.deepEqual(
      ends,
      [...ends].sort((x, y) => y - x),
    );
  });

  it("filters by status, by offer and by end time", async () => {
    const active = await seller.agreement.send(
      new SearchAgreementsCommand({ filters: [...proposer, { name: "Status", values: ["ACTIVE"] }] }),
    );
    assert.equal(active.agreementViewSummaries?.length, 3);
    const offerId = active.agreementViewSummaries?.[0]?.proposalSummary?.offerId ?? "";
    const byOffer = await seller.agreement.send(
      new SearchAgreementsCommand({ filters: [...proposer, { name: "OfferId", values: [offerId] }] }),
    );
    assert.ok(byOffer.agreementViewSummaries?.every((a) => a.proposalSummary?.offerId === offerId));
    const ended = await seller.agreement.send(
      new SearchAgreementsCommand({
        filters: [...proposer, { name: "BeforeEndTime", values: [new Date().toISOString()] }],
      }),
    );
    assert.ok(ended.agreementViewSummaries?.every((a) => (a.endTime?.getTime() ?? 0) < Date.now()));
    assert.ok((ended.agreementViewSummaries?.length ?? 0) >= 1);
  });

  it("pages with maxResults and nextToken", async () => {
    const ids: string[] = [];
    for await (const page of paginateSearchAgreements(
      { client: seller.agreement, pageSize: 4 },
      { filters: proposer },
    )) {
      ids.push(...(page.agreementViewSummaries ?? []).map((a) => a.agreementId ?? ""));
    }
    assert.equal(new Set(ids).size, 6);
  });

  it("answers ValidationException with the documented reasons", async () => {
    const cases: [object, string][] = [
      [{ filters: [{ name: "AgreementType", values: ["PurchaseAgreement"] }] }, "MISSING_PARTY_TYPE"],
      [{ filters: [{ name: "PartyType", values: ["Broker"] }, proposer[1]] }, "INVALID_PARTY_TYPE"],
      [{ filters: [proposer[0]] }, "UNSUPPORTED_FILTERS"],
      [
        { filters: [...proposer, { name: "OfferSetId", values: ["os-1"] }, { name: "OfferId", values: ["offer-1"] }] },
        "UNSUPPORTED_FILTERS",
      ],
      [{ filters: [...proposer, { name: "Colour", values: ["red"] }] }, "INVALID_FILTER_NAME"],
      [{ filters: [...proposer, { name: "Status", values: ["ACTIVE", "EXPIRED"] }] }, "INVALID_FILTER_VALUES"],
      [{ filters: proposer, maxResults: 51 }, "INVALID_MAX_RESULTS"],
      [{ filters: proposer, nextToken: "garbage" }, "INVALID_NEXT_TOKEN"],
      [{ filters: proposer, catalog: "Elsewhere" }, "INVALID_CATALOG"],
      [{ filters: proposer, sort: { sortBy: "StartTime" } }, "INVALID_SORT_BY"],
    ];
    for (const [input, reason] of cases) {
      const err = await rejection(seller.agreement.send(new SearchAgreementsCommand(input as never)));
      assert.equal(err.name, "ValidationException", JSON.stringify(input));
      assert.equal(err.$metadata.httpStatusCode, 400);
      assert.equal(err["reason"], reason, JSON.stringify(input));
    }
  });

  it("denies searching as the acceptor, which the connector policy does not allow", async () => {
    const err = await rejection(
      seller.agreement.send(
        new SearchAgreementsCommand({ filters: [{ name: "PartyType", values: ["Acceptor"] }, proposer[1] as never] }),
      ),
    );
    assert.equal(err.name, "AccessDeniedException");
    assert.equal(err.$metadata.httpStatusCode, 403);
  });
});
