import assert from "node:assert/strict";
import { UpdateAssumeRolePolicyCommand } from "@aws-sdk/client-iam";
import { ROLE_NAME } from "@flowstate/shared/marketplace/connector-role/policies";
import { afterAll, beforeAll, describe, it } from "vitest";
import { type ConnectedTenant, type MarketplaceStack, startMarketplaceStack } from "../testing/marketplace-stack.ts";

/**
 * The confused deputy (https://docs.aws.amazon.com/IAM/latest/UserGuide/confused-deputy.html):
 * Flowstate assumes seller roles for every tenant, so a role that does not insist on *its* tenant's
 * external ID lets another tenant act in that seller's account. Connect refuses such a role (one AssumeRole with a wrong external ID must fail), and a
 * seller account is connected to one tenant at a time, enforced by the database.
 */
describe("POST …/integrations/marketplace: one tenant per seller account, the external ID enforced", () => {
  let stack: MarketplaceStack;
  beforeAll(async () => {
    stack = await startMarketplaceStack({ prefix: "mkt_connect_sec" });
  });
  afterAll(() => stack.close());

  const path = (tenantId: string) => `/v1/tenants/${tenantId}/integrations/marketplace`;
  const connect = (tenantId: string, token: string, roleArn: string) =>
    stack.call("POST", path(tenantId), { token, body: { role_arn: roleArn } });
  const externalIdOf = async (tenantId: string, token: string) =>
    (await stack.call("GET", path(tenantId), { token })).json.external_id as string;
  /** Replaces the role's trust policy (as a seller editing it in the console would). */
  const setTrust = async (t: ConnectedTenant, condition?: object) => {
    await t.seller.iam.send(
      new UpdateAssumeRolePolicyCommand({
        RoleName: ROLE_NAME,
        PolicyDocument: JSON.stringify({
          Version: "2012-10-17",
          Statement: [
            {
              Effect: "Allow",
              Principal: { AWS: t.seller.bundle.principals.map((p) => p.arn) },
              Action: "sts:AssumeRole",
              ...(condition ? { Condition: condition } : {}),
            },
          ],
        }),
      }),
    );
    await fetch(`${stack.sandbox.endpoint}/_sandbox/iam/flush`, { method: "POST", body: "{}" });
  };

  for (const [name, condition] of [
    ["has no sts:ExternalId condition", undefined],
    ['accepts any external ID (StringLike "*")', { StringLike: { "sts:ExternalId": "*" } }],
  ] as const) {
    it(`refuses a role whose trust policy ${name}: 422 external_id_not_enforced, and health reports it`, async () => {
      const t = await stack.connectedTenant();
      await setTrust(t, condition);
      const res = await connect(t.tenantId, t.owner.token, t.roleArn);
      assert.equal(res.status, 422, res.text);
      assert.equal(res.headers.get("content-type"), "application/problem+json");
      assert.equal(res.json.code, "CONNECTOR_VERIFICATION_FAILED");
      assert.equal(res.json.step, "external_id_not_enforced");
      assert.match(res.json.hint, /StringEquals.*sts:ExternalId/);
      assert.deepEqual(
        res.json.diagnosis.map((d: { code: string }) => d.code),
        ["EXTERNAL_ID_CONDITION_MISSING"],
      );
      assert.doesNotMatch(res.text, new RegExp(t.externalId));
      const health = await stack.call("GET", `${path(t.tenantId)}/health`, { token: t.owner.token });
      assert.equal(health.status, 200, health.text);
      assert.equal(health.json.healthy, false);
      assert.deepEqual(
        health.json.diagnosis.map((d: { code: string }) => d.code),
        ["EXTERNAL_ID_CONDITION_MISSING"],
      );
    });
  }

  it("answers a second tenant connecting an already connected seller account 409 SELLER_ACCOUNT_IN_USE without naming the first; after the first disconnects it connects", async () => {
    const a = await stack.connectedTenant();
    const b = await stack.tenant();
    // A trust policy that lets both tenants' external IDs in: only the one-tenant rule stands between them.
    await setTrust(a, {
      StringEquals: { "sts:ExternalId": [a.externalId, await externalIdOf(b.tenantId, b.owner.token)] },
    });
    const res = await connect(b.tenantId, b.owner.token, a.roleArn);
    assert.equal(res.status, 409, res.text);
    assert.equal(res.headers.get("content-type"), "application/problem+json");
    assert.equal(res.json.code, "SELLER_ACCOUNT_IN_USE");
    assert.match(res.json.detail, /disconnect/i);
    assert.doesNotMatch(res.text, new RegExp(`${a.tenantId}|${a.externalId}`));
    const status = await stack.call("GET", path(b.tenantId), { token: b.owner.token });
    assert.equal(status.json.connected, false);
    // A reconnect of the tenant that holds the account is not a second tenant.
    assert.equal((await connect(a.tenantId, a.owner.token, a.roleArn)).status, 200);
    assert.equal((await stack.call("DELETE", path(a.tenantId), { token: a.owner.token })).status, 204);
    const after = await connect(b.tenantId, b.owner.token, a.roleArn);
    assert.equal(after.status, 200, after.text);
    assert.equal(after.json.account_id, a.seller.accountId);
  });

  it("lets exactly one of two tenants connecting the same seller account at once win; the other gets 409", async () => {
    const a = await stack.connectedTenant();
    assert.equal((await stack.call("DELETE", path(a.tenantId), { token: a.owner.token })).status, 204);
    const [x, y] = [await stack.tenant(), await stack.tenant()];
    const ids = [await externalIdOf(x.tenantId, x.owner.token), await externalIdOf(y.tenantId, y.owner.token)];
    await setTrust(a, { StringEquals: { "sts:ExternalId": ids } });
    const answers = await Promise.all([
      connect(x.tenantId, x.owner.token, a.roleArn),
      connect(y.tenantId, y.owner.token, a.roleArn),
    ]);
    assert.deepEqual(answers.map((r) => r.status).sort(), [200, 409], answers.map((r) => r.text).join("\n"));
    assert.equal(answers.find((r) => r.status === 409)?.json.code, "SELLER_ACCOUNT_IN_USE");
  });
});
