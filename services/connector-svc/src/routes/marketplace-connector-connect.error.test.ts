import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { PutRolePolicyCommand } from "@aws-sdk/client-iam";
import { INLINE_POLICY_NAME, ROLE_NAME } from "@flowstate/shared/marketplace/connector-role/policies";
import { afterAll, beforeAll, describe, it } from "vitest";
import { uniqueAccountId } from "../../../../deploy/connector-role/moto-account.ts";
import { type Answer, type MarketplaceStack, startMarketplaceStack } from "../testing/marketplace-stack.ts";
import { sellerAccount } from "../testing/seller-account.ts";

/**
 * Every way connecting can fail (docs/spec/interface.md §7, docs/spec/decisions.md): its status,
 * `step`, AWS's error name, the hint and the diagnosis codes with a fix per onboarding path; never
 * a 500.
 */
describe("POST …/integrations/marketplace when something is wrong", () => {
  let stack: MarketplaceStack;
  beforeAll(async () => {
    stack = await startMarketplaceStack({ prefix: "mkt_connect_err" });
  });
  afterAll(() => stack.close());

  const onboard = async (options: Parameters<typeof sellerAccount>[1] = {}) => {
    const { tenantId, owner } = await stack.tenant();
    const seller = await sellerAccount(stack, options, { tenantId, token: owner.token });
    const connect = (roleArn = seller.roleArn) =>
      stack.call("POST", `/v1/tenants/${tenantId}/integrations/marketplace`, {
        token: owner.token,
        body: { role_arn: roleArn },
      });
    return { tenantId, owner, seller, connect };
  };
  const codes = (a: Answer) =>
    (a.json.diagnosis as { code: string; certainty: string }[]).map((d) => `${d.code}:${d.certainty}`);
  const verificationFailed = (a: Answer, step: string, upstream: string) => {
    assert.equal(a.status, 422, a.text);
    assert.equal(a.headers.get("content-type"), "application/problem+json");
    assert.equal(a.json.code, "CONNECTOR_VERIFICATION_FAILED");
    assert.equal(a.json.step, step);
    assert.equal(a.json.upstream_error, upstream);
    assert.ok(a.json.hint.length > 20);
    for (const d of a.json.diagnosis) {
      for (const path of ["cloudformation", "terraform", "console"]) assert.ok(d.fixes[path].length > 20, path);
    }
    // AWS's message names our sessions' ARNs: never echoed.
    assert.doesNotMatch(a.text, /assumed-role|is not authorized to perform/);
  };

  it("refuses an ARN that is not a role ARN, or another role name, with 400 VALIDATION_FAILED on role_arn", async () => {
    const { connect, seller } = await onboard();
    for (const arn of [
      "not-an-arn",
      `arn:aws:iam::${seller.accountId}:user/MarketplaceConnector`,
      `arn:aws:iam::${seller.accountId}:role/SomethingElse`,
      `arn:aws:iam::${seller.accountId}:role/team/MarketplaceConnector`,
      `arn:aws:iam::12345:role/MarketplaceConnector`,
    ]) {
      const res = await connect(arn);
      assert.equal(res.status, 400, arn);
      assert.equal(res.json.code, "VALIDATION_FAILED");
      assert.equal(res.json.errors[0].path, "role_arn");
      assert.match(res.json.errors[0].message, /MarketplaceConnector/);
    }
  });

  it("names the external ID and the account when nobody can assume the role (its ExternalId is another)", async () => {
    const { connect } = await onboard({ externalId: randomUUID() });
    const res = await connect();
    verificationFailed(res, "assume_role", "AccessDenied");
    assert.deepEqual(codes(res), ["EXTERNAL_ID_MISMATCH:possible", "ROLE_IN_OTHER_ACCOUNT:possible"]);
    assert.match(res.json.hint, /sts:ExternalId/);
    assert.match(res.json.diagnosis[0].fixes.cloudformation, /ExternalId/);
  });

  it("names the account when the ARN points at an account without the role", async () => {
    const { connect } = await onboard();
    const elsewhere = uniqueAccountId();
    const res = await connect(`arn:aws:iam::${elsewhere}:role/MarketplaceConnector`);
    verificationFailed(res, "assume_role", "AccessDenied");
    const other = res.json.diagnosis.find((d: { code: string }) => d.code === "ROLE_IN_OTHER_ACCOUNT");
    assert.match(other.fixes.console, new RegExp(elsewhere));
    assert.match(other.fixes.terraform, /us-east-1/);
  });

  it("is certain the role is in the wrong account when the ARN names Flowstate's own", async () => {
    const { connect } = await onboard();
    const res = await connect("arn:aws:iam::123456789012:role/MarketplaceConnector");
    verificationFailed(res, "assume_role", "AccessDenied");
    assert.deepEqual(codes(res), ["ROLE_IN_OTHER_ACCOUNT:certain"]);
  });

  it("names the missing principal when the trust policy lists only mcp-execution", async () => {
    const { connect } = await onboard({ trusted: ["mcp-execution"] });
    const res = await connect();
    verificationFailed(res, "assume_role", "AccessDenied");
    assert.deepEqual(codes(res), ["PRINCIPAL_NOT_TRUSTED:certain"]);
    assert.equal(res.json.diagnosis[0].principal, "backend");
    assert.match(res.json.diagnosis[0].fixes.cloudformation, /FlowstatePrincipalArns.*flowstate-dev-backend/);
    assert.match(res.json.diagnosis[0].fixes.terraform, /flowstate_principal_arns/);
  });

  it("fails at verify_catalog_read when the role is assumed but its policy does not allow listing", async () => {
    const { connect, seller } = await onboard();
    await seller.iam.send(
      new PutRolePolicyCommand({
        RoleName: ROLE_NAME,
        PolicyName: INLINE_POLICY_NAME,
        PolicyDocument: JSON.stringify({
          Version: "2012-10-17",
          Statement: [{ Effect: "Allow", Action: "aws-marketplace:DescribeEntity", Resource: "*" }],
        }),
      }),
    );
    await fetch(`${stack.sandbox.endpoint}/_sandbox/iam/flush`, { method: "POST", body: "{}" });
    const res = await connect();
    verificationFailed(res, "verify_catalog_read", "AccessDeniedException");
    assert.deepEqual(codes(res), ["CATALOG_ACCESS_DENIED:certain"]);
  });

  const faults = (control: string, list: object[]) =>
    fetch(`${control}/faults`, {
      method: "PUT",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ faults: list }),
    });

  it("answers 503 UPSTREAM_UNAVAILABLE with Retry-After while STS throttles or the catalog fails, after retrying", async () => {
    const { connect, seller } = await onboard();
    await faults(seller.control, [{ kind: "throttle", operations: ["AssumeRole"] }]);
    const throttled = await connect();
    assert.equal(throttled.status, 503, throttled.text);
    assert.equal(throttled.json.code, "UPSTREAM_UNAVAILABLE");
    assert.ok(Number(throttled.headers.get("retry-after")) >= 1);
    assert.equal(throttled.json.upstream_error, "Throttling");
    await faults(seller.control, [{ kind: "error", operations: ["ListEntities"] }]);
    const failing = await connect();
    assert.equal(failing.status, 503, failing.text);
    assert.equal(failing.json.upstream_error, "InternalServiceException");
    assert.ok(failing.headers.get("retry-after"));
  });

  it("connects through a throttle that lifts within the SDK's retries, and through added latency", async () => {
    const { connect, seller } = await onboard();
    await faults(seller.control, [
      { kind: "throttle", operations: ["AssumeRole"], count: 1 },
      { kind: "throttle", operations: ["ListEntities"], count: 1 },
      { kind: "latency", operations: ["ListEntities"], latencyMs: 300 },
    ]);
    const res = await connect();
    assert.equal(res.status, 200, res.text);
    assert.equal(res.json.account_id, seller.accountId);
  });

  it("keeps the external ID through failed and repeated connects", async () => {
    const { tenantId, owner, connect, seller } = await onboard();
    const before = (await stack.call("GET", `/v1/tenants/${tenantId}/integrations/marketplace`, { token: owner.token }))
      .json.external_id;
    await connect(`arn:aws:iam::${uniqueAccountId()}:role/MarketplaceConnector`);
    assert.equal((await connect()).status, 200);
    assert.equal((await connect()).status, 200);
    const after = await stack.call("GET", `/v1/tenants/${tenantId}/integrations/marketplace`, { token: owner.token });
    assert.equal(after.json.external_id, before);
    assert.equal(after.json.external_id, seller.externalId);
  });
});
