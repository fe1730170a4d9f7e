import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { UpdateAssumeRolePolicyCommand } from "@aws-sdk/client-iam";
import { HealthReport } from "@flowstate/contracts/rest/connector/diagnosis";
import { bodyless, IDENTITY_HEADER } from "@flowstate/shared/auth/identity-assertion";
import { waitFor } from "@flowstate/shared/consumer/test-events";
import { ROLE_NAME } from "@flowstate/shared/marketplace/connector-role/policies";
import { systemCall } from "@flowstate/shared/seam/call-context";
import { signedAs } from "@flowstate/shared/testing/signed-as";
import { afterAll, beforeAll, describe, it } from "vitest";
import { HealthCache } from "../health/health-cache.ts";
import { type ConnectedTenant, type MarketplaceStack, startMarketplaceStack } from "../testing/marketplace-stack.ts";
import { noteAttention } from "../verbs/note-attention.ts";

describe("GET …/integrations/marketplace/health", () => {
  let stack: MarketplaceStack;
  beforeAll(async () => {
    stack = await startMarketplaceStack({ prefix: "mkt_health" });
  });
  afterAll(() => stack.close());

  const health = async (t: ConnectedTenant) => {
    const res = await stack.call("GET", `/v1/tenants/${t.tenantId}/integrations/marketplace/health`, {
      token: t.owner.token,
    });
    assert.equal(res.status, 200, res.text);
    return HealthReport.parse(res.json);
  };
  const codes = (r: HealthReport) => r.diagnosis.map((d) => `${d.code}:${d.certainty}`);
  const capabilities = (r: HealthReport) => Object.fromEntries(r.capabilities.map((c) => [c.capability, c.ok]));
  /** The ConnectorAttentionNeeded events of a tenant in connector-svc's outbox (issue 25: notify-svc tells the tenant). */
  const attention = (t: ConnectedTenant) =>
    stack.connector.orm.em.fork().execute<{ envelope: { actor: unknown; data: Record<string, unknown> } }[]>(
      `SELECT envelope FROM "${stack.connector.schema}".outbox_event
          WHERE event_key = 'ConnectorAttentionNeeded.v1' AND envelope->>'tenant_id' = ?`,
      [t.tenantId],
    );
  const flush = () => fetch(`${stack.sandbox.endpoint}/_sandbox/iam/flush`, { method: "POST", body: "{}" });

  it("is healthy for a role deployed from the current template: both principals, every capability", async () => {
    const report = await health(await stack.connectedTenant());
    assert.equal(report.healthy, true);
    assert.deepEqual(
      report.principals.map((p) => [p.principal, p.can_assume]),
      [
        ["backend", true],
        ["mcp-execution", true],
      ],
    );
    assert.deepEqual(capabilities(report), { products: true, offers: true, seller_currencies: true, agreements: true });
    assert.deepEqual(report.diagnosis, []);
    // The Seller entity is readable, but AWS documents no field with the payout currencies: health says so.
    const currencies = report.capabilities.find((c) => c.capability === "seller_currencies");
    assert.equal(currencies?.note?.code, "NOT_DOCUMENTED_BY_AWS");
    assert.match(currencies?.note?.detail ?? "", /AWS/);
  });

  it("names mcp-execution missing from the trust policy; REST keeps working, an MCP call is refused with AccessDenied", async () => {
    const t = await stack.connectedTenant({ trusted: ["backend"] });
    const report = await health(t);
    assert.equal(report.healthy, false);
    assert.deepEqual(codes(report), ["PRINCIPAL_NOT_TRUSTED:certain"]);
    assert.equal(report.diagnosis[0]?.principal, "mcp-execution");
    assert.match(report.diagnosis[0]!.fixes.console, /flowstate-dev-mcp-execution/);
    assert.equal(capabilities(report).products, true);
    const path = `/v1/tenants/${t.tenantId}/integrations/marketplace/products`;
    assert.equal((await stack.call("GET", path, { token: t.owner.token })).status, 200);
    // What mcp-gateway will send: the same caller, channel mcp.
    const mcp = await fetch(`${stack.connectorUrl}${path}`, {
      headers: {
        [IDENTITY_HEADER]: signedAs(stack.secret, "connector-svc", bodyless("GET", path), {
          identity: { kind: "user", sub: t.owner.sub, sid: "ses_0123456789abcdefghij" },
          tenant: { tenant_id: t.tenantId, role: "owner" },
          channel: "mcp",
        }),
      },
    });
    const body = await mcp.json();
    assert.equal(mcp.status, 409);
    assert.deepEqual(
      [body.code, body.upstream_error, body.principal],
      ["CONNECTOR_ACCESS_DENIED", "AccessDenied", "mcp-execution"],
    );
  });

  it("warns when the role can be assumed without the external ID", async () => {
    const t = await stack.connectedTenant();
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
            },
          ],
        }),
      }),
    );
    await flush();
    const report = await health(t);
    assert.deepEqual(codes(report), ["EXTERNAL_ID_CONDITION_MISSING:certain"]);
    assert.equal(report.diagnosis[0]?.severity, "warning");
    assert.equal(report.healthy, false);
    assert.match(report.diagnosis[0]!.fixes.console, /sts:ExternalId/);
  });

  it("names the external ID and the account as possible causes once nobody can assume the role", async () => {
    const t = await stack.connectedTenant();
    await t.seller.trust(randomUUID());
    const report = await health(t);
    assert.deepEqual(codes(report), ["EXTERNAL_ID_MISMATCH:possible", "ROLE_IN_OTHER_ACCOUNT:possible"]);
    assert.ok(report.principals.every((p) => !p.can_assume && p.error === "AccessDenied"));
    assert.ok(report.capabilities.every((c) => !c.ok && c.error === "NotChecked"));
  });

  it("on a legacy stack: products and offers work, agreements and currencies do not, the migration is named; after the stack update it is healthy, no reconnect", async () => {
    const t = await stack.connectedTenant({ version: "legacy" });
    const before = await health(t);
    assert.deepEqual(capabilities(before), {
      products: true,
      offers: true,
      seller_currencies: false,
      agreements: false,
    });
    assert.deepEqual(codes(before), ["POLICY_MIGRATION_REQUIRED:certain"]);
    const fixes = before.diagnosis[0]!.fixes;
    assert.match(fixes.cloudformation, /Update the stack flowstate-marketplace-connector with the current template/);
    assert.match(fixes.terraform, /terraform init -upgrade/);
    assert.match(fixes.console, /MarketplaceAgreementRead/);
    const products = `/v1/tenants/${t.tenantId}/integrations/marketplace/products`;
    assert.equal((await stack.call("GET", products, { token: t.owner.token })).status, 200);
    // The migration due is announced once, by the system, with codes and capabilities only.
    await health(t);
    const announced = await attention(t);
    assert.equal(announced.length, 1);
    assert.deepEqual(announced[0]!.envelope.data, {
      tenant_id: t.tenantId,
      codes: ["POLICY_MIGRATION_REQUIRED"],
      failing: ["agreements", "seller_currencies"],
    });
    assert.deepEqual(announced[0]!.envelope.actor, { kind: "system", service: "connector-svc" });
    // A report naming less (the update half applied: what a check between its two policies sees)
    // is no news; the announcement stands, and the whole problem again is not announced twice.
    const half = {
      ...before,
      capabilities: before.capabilities.map((c) => (c.capability === "agreements" ? { ...c, ok: true } : c)),
    };
    await noteAttention(systemCall("connector-svc", stack.connector), t.tenantId, half);
    await noteAttention(systemCall("connector-svc", stack.connector), t.tenantId, before);
    assert.equal((await attention(t)).length, 1, "a smaller problem, then the same one, announce nothing");

    await t.seller.update("current");
    // The sandbox re-reads role policies within a second; nothing is reconnected or flushed.
    const updated = Date.now();
    const after = await waitFor(async () => {
      const r = await health(t);
      return r.healthy ? r : undefined;
    }, 5_000);
    assert.ok(Date.now() - updated < 3_000);
    assert.deepEqual(after.diagnosis, []);
    assert.equal((await attention(t)).length, 1, "a healthy report announces nothing");
    const status = await stack.call("GET", `/v1/tenants/${t.tenantId}/integrations/marketplace`, {
      token: t.owner.token,
    });
    assert.deepEqual([status.json.role_arn, status.json.external_id], [t.roleArn, t.externalId]);
  });

  it("reports throttling as transient, with a 200 (never a 500)", async () => {
    const t = await stack.connectedTenant();
    await fetch(`${t.seller.control}/faults`, {
      method: "PUT",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ faults: [{ kind: "throttle", operations: ["ListEntities", "SearchAgreements"] }] }),
    });
    const report = await health(t);
    assert.deepEqual(codes(report), ["UPSTREAM_THROTTLED:certain"]);
    assert.equal(report.healthy, false);
  });

  it("reuses an answer for the cache period instead of asking the seller's account again", async () => {
    const t = await stack.connectedTenant();
    const original = stack.connector.health;
    stack.connector.health = new HealthCache(60_000);
    try {
      const calls = () => stack.connector.sessions.stats().assumeRoleCalls;
      await health(t);
      const first = calls();
      await Promise.all(Array.from({ length: 5 }, () => health(t)));
      await health(t);
      assert.equal(calls(), first);
    } finally {
      stack.connector.health = original;
    }
  });

  it("answers 409 CONNECTOR_NOT_CONNECTED before a connect", async () => {
    const { tenantId, owner } = await stack.tenant();
    const res = await stack.call("GET", `/v1/tenants/${tenantId}/integrations/marketplace/health`, {
      token: owner.token,
    });
    assert.equal(res.status, 409);
    assert.equal(res.json.code, "CONNECTOR_NOT_CONNECTED");
  });
});
