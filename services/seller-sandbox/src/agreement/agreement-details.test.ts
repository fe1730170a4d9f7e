import assert from "node:assert/strict";
import {
  DescribeAgreementCommand,
  GetAgreementTermsCommand,
  type MarketplaceAgreementClient,
  paginateGetAgreementTerms,
  SearchAgreementsCommand,
} from "@aws-sdk/client-marketplace-agreement";
import { beforeAll, describe, it } from "vitest";
import { agreementClient, assumeConnector } from "../testing/clients.ts";
import { customRole } from "../testing/custom-role.ts";
import { useSandbox } from "../testing/seller-fixture.ts";
import { rejection, sellerSession } from "../testing/seller-session.ts";

const proposer = [
  { name: "PartyType", values: ["Proposer"] },
  { name: "AgreementType", values: ["PurchaseAgreement"] },
];

/** AWSMarketplaceSellerOfferManagement's agreement statement: proposer, purchase agreements only. */
const readAsProposer = {
  Version: "2012-10-17",
  Statement: [
    {
      Effect: "Allow",
      Action: [
        "aws-marketplace:SearchAgreements",
        "aws-marketplace:DescribeAgreement",
        "aws-marketplace:GetAgreementTerms",
      ],
      Resource: "*",
      Condition: {
        StringEquals: { "aws-marketplace:PartyType": "Proposer" },
        "ForAllValues:StringEquals": { "aws-marketplace:AgreementType": ["PurchaseAgreement"] },
      },
    },
  ],
};

describe("Agreement DescribeAgreement and GetAgreementTerms with the real SDK", () => {
  const sandbox = useSandbox();
  let agreement: MarketplaceAgreementClient;
  let ids: string[];
  let accountId: string;
  beforeAll(async () => {
    const role = await customRole(readAsProposer);
    accountId = role.accountId;
    agreement = agreementClient(
      sandbox.endpoint,
      await assumeConnector(sandbox.endpoint, "backend", role.roleArn, role.externalId),
    );
    const found = await agreement.send(new SearchAgreementsCommand({ filters: proposer }));
    ids = (found.agreementViewSummaries ?? []).map((a) => a.agreementId ?? "");
  });

  it("describes an agreement the seller proposed, with the estimated charges of its schedule", async () => {
    const all = await Promise.all(ids.map((id) => agreement.send(new DescribeAgreementCommand({ agreementId: id }))));
    for (const [i, a] of all.entries()) {
      assert.equal(a.agreementId, ids[i]);
      assert.equal(a.proposer?.accountId, accountId);
      assert.equal(a.agreementType, "PurchaseAgreement");
      assert.ok(a.startTime instanceof Date && a.acceptanceTime instanceof Date);
      assert.match(a.proposalSummary?.offerId ?? "", /^offer-/);
    }
    // The seeded private contract schedules one charge of 12000.00 USD; usage-based ones have no estimate.
    const contract = all.find((a) => a.estimatedCharges);
    assert.deepEqual(contract?.estimatedCharges, { currencyCode: "USD", agreementValue: "12000.00" });
    assert.ok(all.some((a) => a.estimatedCharges === undefined));
  });

  it("answers the accepted terms as the model's union, dates as timestamps, paginated", async () => {
    const pages: number[] = [];
    const terms: Record<string, unknown>[] = [];
    for (const id of ids) {
      for await (const page of paginateGetAgreementTerms({ client: agreement, pageSize: 1 }, { agreementId: id })) {
        pages.push(page.acceptedTerms?.length ?? 0);
        terms.push(...((page.acceptedTerms ?? []) as unknown as Record<string, unknown>[]));
      }
    }
    assert.ok(pages.every((n) => n <= 1));
    const legal = terms.find((t) => t["legalTerm"])?.["legalTerm"] as { type: string; documents: { type: string }[] };
    assert.equal(legal.type, "LegalTerm");
    assert.equal(legal.documents[0]?.type, "StandardEula");
    const schedule = terms.find((t) => t["paymentScheduleTerm"])?.["paymentScheduleTerm"] as {
      currencyCode: string;
      schedule: { chargeDate: Date; chargeAmount: string }[];
    };
    assert.equal(schedule.currencyCode, "USD");
    assert.ok(schedule.schedule[0]?.chargeDate instanceof Date);
    assert.equal(schedule.schedule[0]?.chargeAmount, "12000.00");
    assert.ok(terms.some((t) => t["usageBasedPricingTerm"]));
  });

  it("answers ResourceNotFoundException for an id the seller does not hold, ValidationException for a bad one", async () => {
    for (const command of [
      new DescribeAgreementCommand({ agreementId: "agmt-doesnotexist" }),
      new GetAgreementTermsCommand({ agreementId: "agmt-doesnotexist" }),
    ]) {
      const err = await rejection(agreement.send(command as never));
      assert.equal(err.name, "ResourceNotFoundException");
      assert.equal(err.$metadata.httpStatusCode, 404);
      assert.equal(err["resourceType"], "Agreement");
    }
    const cases: [DescribeAgreementCommand | GetAgreementTermsCommand, string][] = [
      [new DescribeAgreementCommand({ agreementId: "agmt a" }), "INVALID_AGREEMENT_ID"],
      [new DescribeAgreementCommand({} as never), "MISSING_AGREEMENT_ID"],
      [new GetAgreementTermsCommand({ agreementId: ids[0] ?? "", maxResults: 51 }), "INVALID_MAX_RESULTS"],
      [new GetAgreementTermsCommand({ agreementId: ids[0] ?? "", nextToken: "garbage" }), "INVALID_NEXT_TOKEN"],
    ];
    for (const [command, reason] of cases) {
      const err = await rejection(agreement.send(command as never));
      assert.equal(err.name, "ValidationException");
      assert.equal(err.$metadata.httpStatusCode, 400);
      assert.equal(err["reason"], reason);
    }
  });

  it("is refused to a role whose agreement statement grants only SearchAgreements (the connector policy)", async () => {
    const seller = await sellerSession(sandbox);
    const [first] = (await seller.agreement.send(new SearchAgreementsCommand({ filters: proposer })))
      .agreementViewSummaries ?? [{}];
    for (const command of [
      new DescribeAgreementCommand({ agreementId: first?.agreementId ?? "" }),
      new GetAgreementTermsCommand({ agreementId: first?.agreementId ?? "" }),
      // An unknown id gives the same 403, so a caller without the permission learns nothing about ids.
      new DescribeAgreementCommand({ agreementId: "agmt-doesnotexist" }),
    ]) {
      const err = await rejection(seller.agreement.send(command as never));
      assert.equal(err.name, "AccessDeniedException");
      assert.equal(err.$metadata.httpStatusCode, 403);
    }
  });

  it("is refused when the policy allows the actions only as the acceptor", async () => {
    const acceptorOnly = structuredClone(readAsProposer);
    (acceptorOnly.Statement[0] as { Condition: { StringEquals: Record<string, string> } }).Condition.StringEquals[
      "aws-marketplace:PartyType"
    ] = "Acceptor";
    const role = await customRole(acceptorOnly);
    const client = agreementClient(
      sandbox.endpoint,
      await assumeConnector(sandbox.endpoint, "backend", role.roleArn, role.externalId),
    );
    const err = await rejection(client.send(new DescribeAgreementCommand({ agreementId: ids[0] ?? "" })));
    assert.equal(err.name, "AccessDeniedException");
  });
});
