import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { describe, it } from "vitest";
import {
  EXTERNAL_ID_PATTERN,
  externalIdProblem,
  permissionPolicy,
  principalArnsProblem,
  type Statement,
  trustPolicy,
} from "./policies.ts";

const ACCOUNT = "210987654321";
const BACKEND = "arn:aws:iam::111122223333:role/flowstate-prod-backend";
const MCP = "arn:aws:iam::111122223333:role/flowstate-prod-mcp-execution";

function statement(sid: string, version: "current" | "legacy" = "current"): Statement {
  const found = permissionPolicy({ partition: "aws", accountId: ACCOUNT, version }).Statement.find(
    (s) => s.Sid === sid,
  );
  assert.ok(found, `statement ${sid} missing`);
  return found;
}

describe("the MarketplaceCatalogAccess policy", () => {
  it("has exactly the three statements of interface.md §5.2, all Allow", () => {
    const doc = permissionPolicy({ partition: "aws", accountId: ACCOUNT });
    assert.equal(doc.Version, "2012-10-17");
    assert.deepEqual(
      doc.Statement.map((s) => [s.Sid, s.Effect]),
      [
        ["MarketplaceCatalogList", "Allow"],
        ["MarketplaceCatalogManage", "Allow"],
        ["MarketplaceAgreementRead", "Allow"],
      ],
    );
  });

  it("lists entities on every resource without a condition", () => {
    const list = statement("MarketplaceCatalogList");
    assert.equal(list.Action, "aws-marketplace:ListEntities");
    assert.equal(list.Resource, "*");
    assert.equal(list.Condition, undefined);
  });

  it("describes and changes only SaaSProduct, Offer, ChangeSet and Seller of the seller account in us-east-1", () => {
    const manage = statement("MarketplaceCatalogManage");
    assert.deepEqual(manage.Action, [
      "aws-marketplace:DescribeEntity",
      "aws-marketplace:StartChangeSet",
      "aws-marketplace:DescribeChangeSet",
    ]);
    assert.deepEqual(manage.Resource, [
      `arn:aws:aws-marketplace:us-east-1:${ACCOUNT}:AWSMarketplace/SaaSProduct/*`,
      `arn:aws:aws-marketplace:us-east-1:${ACCOUNT}:AWSMarketplace/Offer/*`,
      `arn:aws:aws-marketplace:us-east-1:${ACCOUNT}:AWSMarketplace/ChangeSet/*`,
      `arn:aws:aws-marketplace:us-east-1:${ACCOUNT}:AWSMarketplace/Seller/*`,
    ]);
  });

  it("reads only purchase agreements where the seller is the proposer", () => {
    const read = statement("MarketplaceAgreementRead");
    assert.equal(read.Action, "aws-marketplace:SearchAgreements");
    assert.equal(read.Resource, "*");
    assert.deepEqual(read.Condition, {
      "ForAllValues:StringEquals": { "aws-marketplace:AgreementType": ["PurchaseAgreement"] },
      StringEquals: { "aws-marketplace:PartyType": "Proposer" },
    });
  });

  it("puts the partition into every ARN (aws-us-gov, aws-cn)", () => {
    const manage = permissionPolicy({ partition: "aws-us-gov", accountId: ACCOUNT }).Statement[1]!;
    for (const arn of manage.Resource as string[]) assert.match(arn, /^arn:aws-us-gov:aws-marketplace:us-east-1:/);
  });

  it("keeps the legacy (pre-2026-08-31) version without MarketplaceAgreementRead and without the Seller scope", () => {
    const legacy = permissionPolicy({ partition: "aws", accountId: ACCOUNT, version: "legacy" });
    assert.deepEqual(
      legacy.Statement.map((s) => s.Sid),
      ["MarketplaceCatalogList", "MarketplaceCatalogManage"],
    );
    const current = permissionPolicy({ partition: "aws", accountId: ACCOUNT });
    assert.deepEqual(legacy.Statement[0], current.Statement[0]);
    assert.deepEqual(
      statement("MarketplaceCatalogManage", "legacy").Resource,
      (current.Statement[1]!.Resource as string[]).slice(0, 3),
    );
  });
});

describe("the trust policy", () => {
  it("lets both Flowstate principals assume the role only with the tenant's external ID", () => {
    const externalId = randomUUID();
    assert.deepEqual(trustPolicy({ principalArns: [BACKEND, MCP], externalId }), {
      Version: "2012-10-17",
      Statement: [
        {
          Effect: "Allow",
          Principal: { AWS: [BACKEND, MCP] },
          Action: "sts:AssumeRole",
          Condition: { StringEquals: { "sts:ExternalId": externalId } },
        },
      ],
    });
  });

  it("refuses an empty principal list, the literal undefined and an empty ARN", () => {
    assert.throws(() => trustPolicy({ principalArns: [], externalId: randomUUID() }), /empty/);
    assert.throws(() => trustPolicy({ principalArns: [BACKEND, "undefined"], externalId: randomUUID() }), /undefined/);
    assert.throws(() => trustPolicy({ principalArns: [""], externalId: randomUUID() }), /empty value/);
    assert.equal(principalArnsProblem([BACKEND]), undefined);
  });

  it("accepts exactly the external IDs STS accepts ([\\w+=,.@:/-]{2,1224})", () => {
    for (const ok of [randomUUID(), "ab", "a+b=c,d.e@f:g/h-i_j", "x".repeat(1224)]) {
      assert.equal(externalIdProblem(ok), undefined, ok);
    }
    for (const bad of ["", "a", "x".repeat(1225), "has space", 'quote"', "semi;colon", "ünï", "a\nb"]) {
      assert.match(externalIdProblem(bad) ?? "", /2 to 1224/, JSON.stringify(bad));
      assert.throws(() => trustPolicy({ principalArns: [BACKEND], externalId: bad }));
    }
    assert.equal(EXTERNAL_ID_PATTERN, "^[\\w+=,.@:/-]{2,1224}$");
  });
});
