import assert from "node:assert/strict";
import { describe, it } from "vitest";
import { conditionHolds } from "./conditions.ts";

describe("conditionHolds", () => {
  it("needs StringEquals to match one of the policy's values", () => {
    const c = { StringEquals: { "sts:ExternalId": ["a", "b"] } };
    assert.equal(conditionHolds(c, { "sts:ExternalId": ["b"] }), true);
    assert.equal(conditionHolds(c, { "sts:ExternalId": ["B"] }), false);
  });

  it("fails StringEquals when the key is absent", () => {
    assert.equal(conditionHolds({ StringEquals: { "sts:ExternalId": ["a"] } }, {}), false);
  });

  it("passes a negated operator and an IfExists operator when the key is absent", () => {
    assert.equal(conditionHolds({ StringNotEquals: { "a:b": ["x"] } }, {}), true);
    assert.equal(conditionHolds({ StringEqualsIfExists: { "a:b": ["x"] } }, {}), true);
    assert.equal(conditionHolds({ StringEqualsIfExists: { "a:b": ["x"] } }, { "a:b": ["y"] }), false);
  });

  it("reads keys and operators named like Object.prototype members as absent and unsupported, not as functions", () => {
    assert.equal(conditionHolds({ StringEquals: { constructor: ["x"] } }, {}), false);
    assert.equal(conditionHolds({ StringNotEquals: { toString: ["x"] } }, {}), true);
    assert.throws(() => conditionHolds({ constructor: { "a:b": ["x"] } }, { "a:b": ["x"] }), {
      name: "UnsupportedConditionOperator",
    });
  });

  it("treats condition key names case-insensitively", () => {
    assert.equal(conditionHolds({ StringEquals: { "STS:externalid": ["a"] } }, { "sts:ExternalId": ["a"] }), true);
  });

  it("requires every request value under ForAllValues and one under ForAnyValue", () => {
    const all = { "ForAllValues:StringEquals": { "k:t": ["A", "B"] } };
    const any = { "ForAnyValue:StringEquals": { "k:t": ["A"] } };
    assert.equal(conditionHolds(all, { "k:t": ["A", "B"] }), true);
    assert.equal(conditionHolds(all, { "k:t": ["A", "C"] }), false);
    assert.equal(conditionHolds(any, { "k:t": ["C", "A"] }), true);
    assert.equal(conditionHolds(any, {}), false);
  });

  it("ANDs keys and operators", () => {
    const c = { StringEquals: { "a:x": ["1"], "a:y": ["2"] }, StringLike: { "a:z": ["pre*"] } };
    assert.equal(conditionHolds(c, { "a:x": ["1"], "a:y": ["2"], "a:z": ["prefix"] }), true);
    assert.equal(conditionHolds(c, { "a:x": ["1"], "a:y": ["2"], "a:z": ["nope"] }), false);
  });

  it("tests presence with Null", () => {
    assert.equal(conditionHolds({ Null: { "a:x": ["true"] } }, {}), true);
    assert.equal(conditionHolds({ Null: { "a:x": ["false"] } }, { "a:x": ["v"] }), true);
    assert.equal(conditionHolds({ Null: { "a:x": ["false"] } }, {}), false);
  });

  it("compares dates, numbers and booleans", () => {
    assert.equal(
      conditionHolds(
        { DateLessThan: { "aws:CurrentTime": ["2030-01-01T00:00:00Z"] } },
        { "aws:CurrentTime": ["2026-01-01T00:00:00Z"] },
      ),
      true,
    );
    assert.equal(conditionHolds({ NumericLessThanEquals: { "n:x": ["10"] } }, { "n:x": ["11"] }), false);
    assert.equal(
      conditionHolds({ Bool: { "aws:SecureTransport": ["false"] } }, { "aws:SecureTransport": ["false"] }),
      true,
    );
  });

  it("matches ArnLike per ARN component", () => {
    const c = { ArnLike: { "aws:PrincipalArn": ["arn:aws:iam::*:role/flowstate-*"] } };
    assert.equal(
      conditionHolds(c, { "aws:PrincipalArn": ["arn:aws:iam::123456789012:role/flowstate-dev-backend"] }),
      true,
    );
    assert.equal(conditionHolds(c, { "aws:PrincipalArn": ["arn:aws:iam::123456789012:user/flowstate-x"] }), false);
  });
});
