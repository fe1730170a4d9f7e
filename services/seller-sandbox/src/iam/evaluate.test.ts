import assert from "node:assert/strict";
import { permissionPolicy } from "@flowstate/shared/marketplace/connector-role/policies";
import { describe, it } from "vitest";
import { evaluatePolicies } from "./evaluate.ts";
import { parsePolicyDocument } from "./policy-document.ts";

const acct = "210987654321";
const arn = (kind: string, id: string) => `arn:aws:aws-marketplace:us-east-1:${acct}:AWSMarketplace/${kind}/${id}`;
// The connector role's own inline policy, from the single source the templates are rendered from.
const current = parsePolicyDocument(JSON.stringify(permissionPolicy({ partition: "aws", accountId: acct })));
const check = (action: string, resource: string, context = {}) =>
  evaluatePolicies([current], { action, resource, context }).decision;

describe("evaluatePolicies", () => {
  it("allows an action listed on resource * for any resource", () => {
    assert.equal(check("aws-marketplace:ListEntities", "*"), "Allow");
  });

  it("matches action names case-insensitively", () => {
    assert.equal(check("AWS-Marketplace:listentities", "*"), "Allow");
  });

  it("allows DescribeEntity on an offer ARN of the role's account and denies another account's", () => {
    assert.equal(check("aws-marketplace:DescribeEntity", arn("Offer", "offer-abc")), "Allow");
    assert.equal(
      check("aws-marketplace:DescribeEntity", arn("Offer", "offer-abc").replace(acct, "111111111111")),
      "ImplicitDeny",
    );
  });

  it("denies by default an action no statement names", () => {
    assert.equal(check("aws-marketplace:CancelChangeSet", arn("ChangeSet", "cs1")), "ImplicitDeny");
  });

  it("denies an action on * when the statement is scoped to ARNs", () => {
    assert.equal(check("aws-marketplace:DescribeEntity", "*"), "ImplicitDeny");
  });

  it("allows SearchAgreements only as Proposer of purchase agreements", () => {
    const ctx = (party?: string, types?: string[]) => ({
      ...(party ? { "aws-marketplace:PartyType": [party] } : {}),
      ...(types ? { "aws-marketplace:AgreementType": types } : {}),
    });
    assert.equal(check("aws-marketplace:SearchAgreements", "*", ctx("Proposer", ["PurchaseAgreement"])), "Allow");
    assert.equal(
      check("aws-marketplace:SearchAgreements", "*", ctx("Acceptor", ["PurchaseAgreement"])),
      "ImplicitDeny",
    );
    assert.equal(check("aws-marketplace:SearchAgreements", "*", ctx("Proposer", ["Other"])), "ImplicitDeny");
    assert.equal(check("aws-marketplace:SearchAgreements", "*", ctx(undefined, ["PurchaseAgreement"])), "ImplicitDeny");
  });

  it("lets ForAllValues pass vacuously when the multivalued key is absent, as IAM does", () => {
    assert.equal(
      check("aws-marketplace:SearchAgreements", "*", { "aws-marketplace:PartyType": ["Proposer"] }),
      "Allow",
    );
  });

  it("lets an explicit deny win over an allow", () => {
    const deny = parsePolicyDocument(
      JSON.stringify({
        Statement: { Sid: "NoOffers", Effect: "Deny", Action: "aws-marketplace:*", Resource: arn("Offer", "*") },
      }),
    );
    const r = evaluatePolicies([current, deny], {
      action: "aws-marketplace:DescribeEntity",
      resource: arn("Offer", "offer-1"),
      context: {},
    });
    assert.deepEqual(r, { decision: "ExplicitDeny", sid: "NoOffers" });
  });

  it("supports NotAction and NotResource", () => {
    const p = parsePolicyDocument(
      JSON.stringify({
        Statement: [{ Effect: "Allow", NotAction: "aws-marketplace:StartChangeSet", NotResource: arn("Seller", "*") }],
      }),
    );
    const d = (action: string, resource: string) => evaluatePolicies([p], { action, resource, context: {} }).decision;
    assert.equal(d("aws-marketplace:DescribeEntity", arn("Offer", "o")), "Allow");
    assert.equal(d("aws-marketplace:DescribeEntity", arn("Seller", "s")), "ImplicitDeny");
    assert.equal(d("aws-marketplace:StartChangeSet", arn("Offer", "o")), "ImplicitDeny");
  });

  it("does not let a wildcard in the account part of an ARN span a colon", () => {
    const p = parsePolicyDocument(
      JSON.stringify({ Statement: [{ Effect: "Allow", Action: "*", Resource: "arn:aws:*:Offer/*" }] }),
    );
    assert.equal(
      evaluatePolicies([p], { action: "x:y", resource: arn("Offer", "o"), context: {} }).decision,
      "ImplicitDeny",
    );
  });

  it("fails closed on a condition operator it does not implement", () => {
    const p = parsePolicyDocument(
      JSON.stringify({
        Statement: [{ Effect: "Allow", Action: "*", Resource: "*", Condition: { MadeUpOperator: { "a:b": "c" } } }],
      }),
    );
    assert.equal(evaluatePolicies([p], { action: "x:y", resource: "*", context: {} }).decision, "ImplicitDeny");
  });

  it("reads the URL-encoded form IAM answers", () => {
    const encoded = encodeURIComponent(
      JSON.stringify({ Statement: { Effect: "Allow", Action: "a:b", Resource: "*" } }),
    );
    assert.equal(
      evaluatePolicies([parsePolicyDocument(encoded)], { action: "a:b", resource: "*", context: {} }).decision,
      "Allow",
    );
  });
});
