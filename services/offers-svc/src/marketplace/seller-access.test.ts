import assert from "node:assert/strict";
import { ListEntitiesCommand } from "@aws-sdk/client-marketplace-catalog";
import { type MarketplaceStack, startMarketplaceStack } from "@flowstate/connector-svc/testing/marketplace-stack";
import { sellerAccount } from "@flowstate/connector-svc/testing/seller-account";
import { DEFAULT_PRINCIPAL_KEYS } from "@flowstate/seller-sandbox/credentials/principals";
import { serviceSigner, testKeyring } from "@flowstate/shared/auth/keyring";
import { createAwsClients } from "@flowstate/shared/aws/clients";
import { createLogger } from "@flowstate/shared/log/logger";
import { connectorLookup } from "@flowstate/shared/marketplace/connector-lookup";
import { createSellerSessions } from "@flowstate/shared/marketplace/seller-sessions";
import { afterAll, beforeAll, describe, it } from "vitest";
import { sellerAccess } from "./seller-access.ts";

/**
 * One offers-svc replica's seller access (the connector lookup with its cache, as deps-factory.ts
 * builds it) against the real connector-svc and seller sandbox: the replica looked a tenant up
 * before it connected, and the ConnectorConnected that would make it forget went to another
 * replica. The background workers (change-set tracker, agreement watch) act on "not connected"
 * durably, so they ask past the cache; a request's answer may be that old for the cache's TTL.
 */
let stack: MarketplaceStack;
const closers: (() => void)[] = [];
beforeAll(async () => {
  stack = await startMarketplaceStack({ prefix: "offers_access" });
});
afterAll(async () => {
  for (const close of closers) close();
  await stack.close();
});

function replica() {
  const sessions = createSellerSessions({
    aws: createAwsClients({ marketplaceEndpoint: stack.sandbox.endpoint }),
    principals: DEFAULT_PRINCIPAL_KEYS,
    logger: createLogger({ service: "offers-svc" }),
  });
  closers.push(() => sessions.close());
  const directory = connectorLookup({
    baseUrl: stack.connectorUrl,
    sign: serviceSigner(testKeyring("offers-svc", stack.secret), "connector-svc"),
    // Longer than the connection below takes, so the cached answer is still there after it.
    ttlMs: 120_000,
  });
  return sellerAccess(sessions, directory);
}

const offers = ({ catalog }: { catalog: { send: (c: ListEntitiesCommand) => Promise<unknown> } }) =>
  catalog.send(new ListEntitiesCommand({ Catalog: "AWSMarketplace", EntityType: "Offer" }));
const notConnected = { code: "CONNECTOR_NOT_CONNECTED" };

describe("a replica's seller access after a connection it did not hear of", () => {
  it("answers a background worker from connector-svc, not from the cached 'not connected'", async () => {
    const access = replica();
    const { tenantId, owner } = await stack.tenant();
    await assert.rejects(access.withClients(tenantId, "backend", offers), notConnected);

    const seller = await sellerAccount(stack, {}, { tenantId, token: owner.token });
    const connected = await stack.call("POST", `/v1/tenants/${tenantId}/integrations/marketplace`, {
      token: owner.token,
      body: { role_arn: seller.roleArn },
    });
    assert.equal(connected.status, 200);

    // What this replica cached before is still its answer to a request …
    await assert.rejects(access.withClients(tenantId, "backend", offers), notConnected);
    // … but a background worker's call reaches the seller's account.
    const out = (await access.withClients(tenantId, "backend", offers, { recheckAbsent: true })) as {
      EntitySummaryList?: unknown[];
    };
    assert.ok(Array.isArray(out.EntitySummaryList));
    // And the fresh answer replaced the stale one for every later call.
    await access.withClients(tenantId, "backend", offers);
  });

  it("still answers 'not connected' for a tenant that is not, after asking again", async () => {
    const access = replica();
    const { tenantId } = await stack.tenant();
    await assert.rejects(access.withClients(tenantId, "backend", offers), notConnected);
    await assert.rejects(access.withClients(tenantId, "backend", offers, { recheckAbsent: true }), notConnected);
  });
});
