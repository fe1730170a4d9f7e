import assert from "node:assert/strict";
import { connectorRoutes } from "@flowstate/contracts/rest/routes";
import { DEFAULT_PRINCIPAL_KEYS } from "@flowstate/seller-sandbox/credentials/principals";
import { bodyless, IDENTITY_HEADER } from "@flowstate/shared/auth/identity-assertion";
import { createAwsClients } from "@flowstate/shared/aws/clients";
import { CallContext } from "@flowstate/shared/seam/call-context";
import { credentialsAsSigned } from "@flowstate/shared/testing/credentials";
import { signedAs } from "@flowstate/shared/testing/signed-as";
import { afterAll, beforeAll, describe, it } from "vitest";
import { buildDeps } from "../deps-factory.ts";
import { externalIdDigest } from "../secrets/external-id-vault.ts";
import { type ConnectedTenant, type MarketplaceStack, startMarketplaceStack } from "../testing/marketplace-stack.ts";
import { disconnect } from "../verbs/disconnect.ts";

/**
 * Tenant isolation and the feature flag on the marketplace routes: tenant A never reads or uses
 * tenant B's external ID, connector, products or credentials, whatever route, id or header it
 * tries; every route answers 403 FEATURE_DISABLED while the flag is off, before connector-svc
 * is reached. (The authorization matrix covers every caller kind per route.)
 */
describe("marketplace routes: isolation and the feature flag", () => {
  let stack: MarketplaceStack;
  let a: ConnectedTenant;
  let b: ConnectedTenant;
  beforeAll(async () => {
    stack = await startMarketplaceStack({ prefix: "mkt_security" });
    [a, b] = [await stack.connectedTenant(), await stack.connectedTenant()];
  });
  afterAll(() => stack.close());

  const tenantRoutes = connectorRoutes.filter((r) => r.auth === "tenant");
  const pathOf = (template: string, tenantId: string) => template.replace("{id}", tenantId);

  it("generates every external ID itself, distinct across tenants, UUIDv4 in IAM's pattern, and refuses one a client supplies (§7 check 27)", async () => {
    const ids = [a.externalId, b.externalId];
    const tenants = [a.tenantId, b.tenantId];
    for (let i = 0; i < 8; i++) {
      const { tenantId, owner } = await stack.tenant();
      const status = await stack.call("GET", `/v1/tenants/${tenantId}/integrations/marketplace`, {
        token: owner.token,
      });
      assert.equal(status.status, 200, status.text);
      ids.push(status.json.external_id);
      tenants.push(tenantId);
      const supplied = await stack.call("POST", `/v1/tenants/${tenantId}/integrations/marketplace`, {
        token: owner.token,
        body: { role_arn: a.roleArn, external_id: a.externalId },
      });
      assert.equal(supplied.status, 400, supplied.text);
      assert.equal(supplied.json.code, "VALIDATION_FAILED");
    }
    assert.equal(new Set(ids).size, ids.length, "no two tenants share an external ID");
    for (const id of ids) {
      assert.match(id, /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
      assert.match(id, /^[\w+=,.@:/-]{2,1224}$/);
    }
    // The database's unique index holds each tenant's digest (a second tenant with the same ID is
    // refused by it: src/db/external-id-unique.test.ts).
    for (const [i, tenantId] of tenants.entries()) {
      const row = await stack.connector.rows.read(tenantId);
      assert.deepEqual(row?.external_id_digest, externalIdDigest(ids[i]!), tenantId);
    }
  });

  it("answers B's token on every route of A exactly as for a missing tenant, and reaches no service", async () => {
    for (const route of tenantRoutes) {
      const seen = stack.reached.length;
      const body = route.method === "POST" ? { role_arn: b.roleArn } : undefined;
      const res = await stack.call(route.method, pathOf(route.path, a.tenantId), { token: b.owner.token, body });
      assert.equal(res.status, 404, `${route.id}: ${res.text}`);
      assert.equal(res.json.code, "NOT_FOUND");
      assert.doesNotMatch(res.text, new RegExp(`${a.externalId}|${a.seller.accountId}`));
      assert.equal(stack.reached.length, seen, `${route.id} reached connector-svc`);
    }
  });

  it("refuses a header minted for B's tenant on A's path at connector-svc itself (404), never answering A's data", async () => {
    for (const route of tenantRoutes.filter((r) => r.method === "GET")) {
      const path = pathOf(route.path, a.tenantId);
      const res = await fetch(`${stack.connectorUrl}${path}`, {
        headers: {
          [IDENTITY_HEADER]: signedAs(stack.secret, "connector-svc", bodyless("GET", path), {
            identity: { kind: "user", sub: b.owner.sub, sid: "ses_0123456789abcdefghij" },
            tenant: { tenant_id: b.tenantId, role: "owner" },
            channel: "rest",
          }),
        },
      });
      const text = await res.text();
      assert.equal(res.status, 404, `${route.id}: ${text}`);
      assert.doesNotMatch(text, new RegExp(`${a.externalId}|${a.roleArn}`));
    }
  });

  it("never lets B use A's role: connecting B with A's role ARN fails (B's external ID is not in A's trust policy)", async () => {
    const res = await stack.call("POST", `/v1/tenants/${b.tenantId}/integrations/marketplace`, {
      token: b.owner.token,
      body: { role_arn: a.roleArn },
    });
    assert.equal(res.status, 422, res.text);
    assert.equal(res.json.step, "assume_role");
    const status = await stack.call("GET", `/v1/tenants/${b.tenantId}/integrations/marketplace`, {
      token: b.owner.token,
    });
    assert.equal(status.json.role_arn, b.roleArn, "a failed connect leaves B's connector as it was");
    const products = await stack.call("GET", `/v1/tenants/${b.tenantId}/integrations/marketplace/products?limit=50`, {
      token: b.owner.token,
    });
    const aProducts = await stack.call("GET", `/v1/tenants/${a.tenantId}/integrations/marketplace/products?limit=50`, {
      token: a.owner.token,
    });
    const ids = (x: { json: { products: { id: string }[] } }) => new Set(x.json.products.map((p) => p.id));
    assert.equal(
      [...ids(products)].filter((id) => ids(aProducts).has(id)).length,
      0,
      "B sees only its own seller's products",
    );
  });

  it("drops a tenant's cached credentials on disconnect; its next connect assumes the role again", async () => {
    const t = await stack.connectedTenant();
    const base = `/v1/tenants/${t.tenantId}/integrations/marketplace`;
    await stack.call("GET", `${base}/products`, { token: t.owner.token });
    const calls = () => stack.connector.sessions.stats().assumeRoleCalls;
    const cached = stack.connector.sessions.stats().cached;
    assert.equal((await stack.call("DELETE", base, { token: t.owner.token })).status, 204);
    assert.equal(stack.connector.sessions.stats().cached, cached - 1);
    const products = await stack.call("GET", `${base}/products`, { token: t.owner.token });
    assert.equal(products.json.code, "CONNECTOR_NOT_CONNECTED");
    const fresh = await stack.call("GET", base, { token: t.owner.token });
    await t.seller.trust(fresh.json.external_id);
    const before = calls();
    const refusedBefore = stack.connector.sessions.stats().assumeRoleFailures;
    assert.equal((await stack.call("POST", base, { token: t.owner.token, body: { role_arn: t.roleArn } })).status, 200);
    // One AssumeRole that opens the session, and connect's wrong-external-ID probe, refused (verify-role.ts).
    assert.equal(calls(), before + 2);
    assert.equal(stack.connector.sessions.stats().assumeRoleFailures, refusedBefore + 1);
  });

  it("refuses a warm session once another instance disconnected the tenant, and drops it", async () => {
    const t = await stack.connectedTenant();
    const products = `/v1/tenants/${t.tenantId}/integrations/marketplace/products`;
    assert.equal((await stack.call("GET", products, { token: t.owner.token })).status, 200);
    const other = buildDeps({
      orm: stack.connector.orm,
      logger: stack.connector.logger,
      aws: createAwsClients({ endpoint: process.env.AWS_ENDPOINT_URL, marketplaceEndpoint: stack.sandbox.endpoint }),
      credentials: credentialsAsSigned,
      callerKeys: stack.connector.callerKeys,
      kmsKeyId: stack.connector.kmsKeyId,
      principals: DEFAULT_PRINCIPAL_KEYS,
      settings: stack.connector.settings,
    });
    await disconnect({
      ctx: new CallContext(
        "connector-svc",
        other,
        {
          caller: { kind: "user", sub: t.owner.sub, sid: "ses_0123456789abcdefghij" },
          tenant: { tenant_id: t.tenantId, role: "owner" },
          channel: "rest",
          logger: other.logger,
        },
        other.credentials,
      ),
      tenantId: t.tenantId,
    });
    const cached = stack.connector.sessions.stats().cached;
    const res = await stack.call("GET", products, { token: t.owner.token });
    assert.equal(res.status, 409);
    assert.equal(res.json.code, "CONNECTOR_NOT_CONNECTED");
    assert.doesNotMatch(res.text, /prod-/);
    assert.equal(stack.connector.sessions.stats().cached, cached - 1);
    other.sessions.close();
  });

  it("answers 403 FEATURE_DISABLED on every marketplace route while the flag is off, without reaching connector-svc", async () => {
    const { tenantId, owner } = await stack.tenant({ flag: false });
    for (const route of tenantRoutes) {
      const seen = stack.reached.length;
      const body = route.method === "POST" ? { role_arn: a.roleArn } : undefined;
      const res = await stack.call(route.method, pathOf(route.path, tenantId), { token: owner.token, body });
      assert.equal(res.status, 403, `${route.id}: ${res.text}`);
      assert.equal(res.json.code, "FEATURE_DISABLED");
      assert.equal(res.json.feature, "marketplace_offers");
      assert.equal(stack.reached.length, seen);
    }
    await stack.call("PUT", `/v1/tenants/${tenantId}/features`, {
      token: owner.token,
      body: { marketplace_offers: true },
    });
    const on = await stack.call("GET", `/v1/tenants/${tenantId}/integrations/marketplace`, { token: owner.token });
    assert.equal(on.status, 200, "the change applies to the very next request");
  });
});
