import assert from "node:assert/strict";
import { describe, it } from "vitest";
import { parsePolicyDocument } from "./policy-document.ts";
import { evaluateTrust } from "./trust.ts";

const backend = "arn:aws:iam::123456789012:role/flowstate-dev-backend";
const mcp = "arn:aws:iam::123456789012:role/flowstate-dev-mcp-execution";
const role = "arn:aws:iam::210987654321:role/MarketplaceConnector";
const trust = (principals: unknown, extra: object = {}) =>
  parsePolicyDocument(
    JSON.stringify({
      Version: "2012-10-17",
      Statement: [
        {
          Effect: "Allow",
          Principal: { AWS: principals },
          Action: "sts:AssumeRole",
          Condition: { StringEquals: { "sts:ExternalId": "ext-1" } },
          ...extra,
        },
      ],
    }),
  );
const ext = (v?: string) => (v ? { "sts:ExternalId": [v] } : {});

describe("evaluateTrust", () => {
  it("allows a listed principal with the right external id", () => {
    assert.equal(evaluateTrust(trust([backend, mcp]), mcp, role, ext("ext-1")), "Allow");
  });

  it("denies a wrong or missing external id", () => {
    assert.equal(evaluateTrust(trust([backend, mcp]), backend, role, ext("ext-2")), "ImplicitDeny");
    assert.equal(evaluateTrust(trust([backend, mcp]), backend, role, ext()), "ImplicitDeny");
  });

  it("denies a principal that is not listed", () => {
    assert.equal(evaluateTrust(trust(backend), mcp, role, ext("ext-1")), "ImplicitDeny");
  });

  it("trusts every principal of an account named by id or root", () => {
    assert.equal(evaluateTrust(trust("123456789012"), mcp, role, ext("ext-1")), "Allow");
    assert.equal(evaluateTrust(trust("arn:aws:iam::123456789012:root"), mcp, role, ext("ext-1")), "Allow");
    assert.equal(evaluateTrust(trust("arn:aws:iam::999999999999:root"), mcp, role, ext("ext-1")), "ImplicitDeny");
  });

  it("trusts an assumed-role session as its role", () => {
    const session = "arn:aws:sts::123456789012:assumed-role/flowstate-dev-backend/i-123";
    assert.equal(evaluateTrust(trust(backend), session, role, ext("ext-1")), "Allow");
  });

  it("only grants the action it names", () => {
    assert.equal(evaluateTrust(trust(backend), backend, role, ext("ext-1"), "sts:TagSession"), "ImplicitDeny");
  });

  it("lets a Deny statement win", () => {
    const doc = trust([backend, mcp]);
    doc.Statement.push({ Effect: "Deny", Principal: { AWS: [mcp] }, Action: ["sts:AssumeRole"] });
    assert.equal(evaluateTrust(doc, mcp, role, ext("ext-1")), "ExplicitDeny");
    assert.equal(evaluateTrust(doc, backend, role, ext("ext-1")), "Allow");
  });
});
