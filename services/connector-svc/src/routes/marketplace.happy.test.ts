import assert from "node:assert/strict";
import { ConnectorStatus } from "@flowstate/contracts/rest/connector/marketplace";
import { afterAll, beforeAll, describe, it } from "vitest";
import { type MarketplaceStack, startMarketplaceStack } from "../testing/marketplace-stack.ts";

describe("the marketplace connector through the gateway", () => {
  let stack: MarketplaceStack;
  beforeAll(async () => {
    stack = await startMarketplaceStack({ prefix: "mkt_happy" });
  });
  afterAll(() => stack.close());

  it("connects a seller account onboarded with the CloudFormation quick-create link, then lists its products", async () => {
    const t = await stack.connectedTenant();
    const base = `/v1/tenants/${t.tenantId}/integrations/marketplace`;
    const status = await stack.call("GET", base, { token: t.owner.token });
    assert.equal(status.status, 200, status.text);
    const parsed = ConnectorStatus.parse(status.json);
    assert.equal(parsed.connected, true);
    assert.deepEqual(
      { role_arn: status.json.role_arn, account_id: status.json.account_id, external_id: status.json.external_id },
      { role_arn: t.roleArn, account_id: t.seller.accountId, external_id: t.externalId },
    );
    const products = await stack.call("GET", `${base}/products?limit=2`, { token: t.owner.token });
    assert.equal(products.status, 200, products.text);
    assert.equal(products.json.products.length, 2);
    assert.ok(products.json.next_cursor);
    const rest = await stack.call("GET", `${base}/products?limit=50&cursor=${products.json.next_cursor}`, {
      token: t.owner.token,
    });
    assert.equal(rest.status, 200, rest.text);
    assert.equal(rest.json.next_cursor, null);
    const all = [...products.json.products, ...rest.json.products].map((p: { id: string }) => p.id);
    assert.equal(new Set(all).size, 4);
  });

  it("disconnects: 204, the external ID is discarded and the next read generates another", async () => {
    const t = await stack.connectedTenant();
    const base = `/v1/tenants/${t.tenantId}/integrations/marketplace`;
    assert.equal((await stack.call("DELETE", base, { token: t.owner.token })).status, 204);
    const after = await stack.call("GET", base, { token: t.owner.token });
    assert.equal(after.status, 200);
    assert.equal(after.json.connected, false);
    assert.notEqual(after.json.external_id, t.externalId);
    assert.equal(
      (await stack.call("GET", `${base}/products`, { token: t.owner.token })).json.code,
      "CONNECTOR_NOT_CONNECTED",
    );
  });
});
