import assert from "node:assert/strict";
import { ListEntitiesCommand } from "@aws-sdk/client-marketplace-catalog";
import { fetchConnectedAccounts } from "@flowstate/partner-inbound/connector-client";
import { DEFAULT_PRINCIPAL_KEYS } from "@flowstate/seller-sandbox/credentials/principals";
import { bodyless, IDENTITY_HEADER } from "@flowstate/shared/auth/identity-assertion";
import { serviceSigner, testKeyring } from "@flowstate/shared/auth/keyring";
import { createAwsClients } from "@flowstate/shared/aws/clients";
import { createLogger } from "@flowstate/shared/log/logger";
import { connectorLookup } from "@flowstate/shared/marketplace/connector-lookup";
import { createSellerSessions } from "@flowstate/shared/marketplace/seller-sessions";
import { signedAs } from "@flowstate/shared/testing/signed-as";
import { afterAll, beforeAll, describe, it } from "vitest";
import { type MarketplaceStack, startMarketplaceStack } from "../testing/marketplace-stack.ts";

describe("the connector lookup of offers-svc and mcp-gateway (internal route)", () => {
  let stack: MarketplaceStack;
  beforeAll(async () => {
    stack = await startMarketplaceStack({ prefix: "mkt_internal" });
  });
  afterAll(() => stack.close());

  it("gives offers-svc what it needs to assume the role itself, and null for a tenant not connected", async () => {
    const t = await stack.connectedTenant();
    const lookup = connectorLookup({
      baseUrl: stack.connectorUrl,
      sign: serviceSigner(testKeyring("offers-svc", stack.secret), "connector-svc"),
    });
    const connector = await lookup.get(t.tenantId);
    assert.deepEqual(connector, {
      tenantId: t.tenantId,
      roleArn: t.roleArn,
      externalId: t.externalId,
      accountId: t.seller.accountId,
    });
    const sessions = createSellerSessions({
      aws: createAwsClients({ marketplaceEndpoint: stack.sandbox.endpoint }),
      principals: DEFAULT_PRINCIPAL_KEYS,
      logger: createLogger({ service: "offers-svc" }),
    });
    const out = await sessions.withClients(connector!, "backend", ({ catalog }) =>
      catalog.send(new ListEntitiesCommand({ Catalog: "AWSMarketplace", EntityType: "Offer" })),
    );
    assert.ok(out.EntitySummaryList?.length);
    sessions.close();
    const other = await stack.tenant();
    assert.equal(await lookup.get(other.tenantId), null);
  });

  it("answers 403 to any other service (the route's callers) and 401 to a caller's identity", async () => {
    const t = await stack.connectedTenant();
    const path = `/internal/v1/tenants/${t.tenantId}/marketplace-connector`;
    const identities = [
      [{ kind: "service", service: "edge-gateway" }, 403],
      [{ kind: "service", service: "partner-inbound" }, 403],
      [{ kind: "user", sub: t.owner.sub, sid: "ses_0123456789abcdefghij" }, 401],
    ] as const;
    for (const [identity, status] of identities) {
      const res = await fetch(`${stack.connectorUrl}${path}`, {
        headers: { [IDENTITY_HEADER]: signedAs(stack.secret, "connector-svc", bodyless("GET", path), { identity }) },
      });
      assert.equal(res.status, status, identity.kind);
      assert.doesNotMatch(await res.text(), new RegExp(t.externalId));
    }
    // And the gateway does not route /internal at all.
    assert.equal((await stack.call("GET", path, { token: t.owner.token })).status, 404);
  });

  it("lists connected tenants' seller accounts (ids only) to partner-inbound, and nothing else to it", async () => {
    const t = await stack.connectedTenant();
    // partner-inbound signs with its one key (ADR 0014), derived from the stack's test secret.
    const partnerSigns = serviceSigner(testKeyring("partner-inbound", stack.secret), "connector-svc");
    const accounts = await fetchConnectedAccounts(stack.connectorUrl, partnerSigns);
    assert.ok(accounts.some((a) => a.tenant_id === t.tenantId && a.account_id === t.seller.accountId));
    assert.doesNotMatch(JSON.stringify(accounts), new RegExp(t.externalId));
    const secretPath = `/internal/v1/tenants/${t.tenantId}/marketplace-connector`;
    const asPartner = await fetch(`${stack.connectorUrl}${secretPath}`, {
      headers: {
        [IDENTITY_HEADER]: signedAs(stack.secret, "connector-svc", bodyless("GET", secretPath), {
          identity: { kind: "service", service: "partner-inbound" },
        }),
      },
    });
    assert.equal(asPartner.status, 403);
    // With its own key too: the key is genuine here, the route is not one partner-inbound may call.
    const keyedPartner = await fetch(`${stack.connectorUrl}${secretPath}`, {
      headers: { [IDENTITY_HEADER]: partnerSigns(bodyless("GET", secretPath)) },
    });
    assert.equal(keyedPartner.status, 403);
    const list = "/internal/v1/marketplace-connectors";
    const asGateway = await fetch(`${stack.connectorUrl}${list}`, {
      headers: {
        [IDENTITY_HEADER]: signedAs(stack.secret, "connector-svc", bodyless("GET", list), {
          identity: { kind: "service", service: "edge-gateway" },
        }),
      },
    });
    assert.equal(asGateway.status, 403);
  });

  it("lists connected tenants' ids to offers-svc (its agreement-watch backfill), signed with its own key", async () => {
    const t = await stack.connectedTenant();
    const gone = await stack.tenant();
    const lookup = connectorLookup({
      baseUrl: stack.connectorUrl,
      sign: serviceSigner(testKeyring("offers-svc", stack.secret), "connector-svc"),
    });
    const connected = await lookup.connected();
    assert.ok(connected.includes(t.tenantId));
    assert.ok(!connected.includes(gone.tenantId), "a tenant never connected is not listed");
  });
});
