import assert from "node:assert/strict";
import { PutRolePolicyCommand } from "@aws-sdk/client-iam";
import { SearchAgreementsCommand } from "@aws-sdk/client-marketplace-agreement";
import { ListEntitiesCommand, MarketplaceCatalogClient } from "@aws-sdk/client-marketplace-catalog";
import { AssumeRoleCommand } from "@aws-sdk/client-sts";
import { describe, it } from "vitest";
import { motoAccountCredentials } from "../../../../deploy/connector-role/moto-account.ts";
import { privateOfferChanges, runChangeSet } from "../testing/change-sets.ts";
import { assumeConnector, catalogClient, principalCredentials, stsClient } from "../testing/clients.ts";
import { customRole } from "../testing/custom-role.ts";
import { useSellerSession } from "../testing/seller-fixture.ts";
import { rejection } from "../testing/seller-session.ts";

const list = new ListEntitiesCommand({ Catalog: "AWSMarketplace", EntityType: "SaaSProduct" });
const put = (url: string, body: unknown) => fetch(url, { method: "PUT", body: JSON.stringify(body) });

describe("the control plane under /_sandbox/", () => {
  const seller = useSellerSession();

  it("throttles with 429 ThrottlingException for as many calls as asked, then recovers", async () => {
    await put(`${seller.control}/faults`, { faults: [{ kind: "throttle", operations: ["ListEntities"], count: 1 }] });
    const err = await rejection(seller.catalog.send(list));
    assert.equal(err.name, "ThrottlingException");
    assert.equal(err.$metadata.httpStatusCode, 429);
    await seller.catalog.send(list);
  });

  it("is absorbed by the SDK's own retries when the fault is brief", async () => {
    await put(`${seller.control}/faults`, { faults: [{ kind: "throttle", count: 1 }] });
    const retrying = new MarketplaceCatalogClient({
      region: "us-east-1",
      endpoint: seller.endpoint,
      credentials: seller.credentials,
      maxAttempts: 3,
    });
    const out = await retrying.send(list);
    assert.equal(out.$metadata.attempts, 2);
  });

  it("answers 500 in each protocol's shape while an error fault is on", async () => {
    await put(`${seller.control}/faults`, { faults: [{ kind: "error" }] });
    assert.equal((await rejection(seller.catalog.send(list))).name, "InternalServiceException");
    const agreements = await rejection(
      seller.agreement.send(
        new SearchAgreementsCommand({
          filters: [
            { name: "PartyType", values: ["Proposer"] },
            { name: "AgreementType", values: ["PurchaseAgreement"] },
          ],
        }),
      ),
    );
    assert.equal(agreements.name, "InternalServerException");
    assert.equal(agreements.$metadata.httpStatusCode, 500);
    const sts = await rejection(
      stsClient(seller.endpoint, principalCredentials("backend")).send(
        new AssumeRoleCommand({
          RoleArn: seller.role.roleArn,
          RoleSessionName: "x1",
          ExternalId: seller.role.externalId,
        }),
      ),
    );
    assert.equal(sts.name, "InternalFailure");
    await fetch(`${seller.control}/faults`, { method: "DELETE" });
    await seller.catalog.send(list);
  });

  it("adds latency to the chosen operation only", async () => {
    await put(`${seller.control}/faults`, {
      faults: [{ kind: "latency", operations: ["ListEntities"], latencyMs: 300 }],
    });
    const t0 = performance.now();
    await seller.catalog.send(list);
    assert.ok(performance.now() - t0 >= 300);
    await fetch(`${seller.control}/faults`, { method: "DELETE" });
  });

  it("throttles STS AssumeRole with the code the SDK retries on", async () => {
    await put(`${seller.control}/faults`, { faults: [{ kind: "throttle", operations: ["AssumeRole"], count: 1 }] });
    const err = await rejection(
      assumeConnector(seller.endpoint, "backend", seller.role.roleArn, seller.role.externalId),
    );
    assert.equal(err.name, "Throttling");
  });

  it("resets an account to its seed, dropping offers and clock changes", async () => {
    const product = (await (await fetch(seller.control)).json()).products.find(
      (p: { visibility: string }) => p.visibility === "Public",
    );
    const made = await runChangeSet(seller.catalog, privateOfferChanges(product.id));
    assert.equal(made.final.Status, "SUCCEEDED");
    await put(`${seller.control}/clock`, { advanceSeconds: 60 });
    const before = await (await fetch(seller.control)).json();
    assert.equal(before.offers.length, 6);
    const after = await (await fetch(`${seller.control}/reset`, { method: "POST" })).json();
    assert.equal(after.offers.length, 5);
    assert.equal(after.clockOffsetSeconds, 0);
    assert.deepEqual(after.products, before.products, "the seed is deterministic per account");
  });

  it("rejects a malformed account id and a malformed fault", async () => {
    assert.equal((await fetch(`${seller.endpoint}/_sandbox/accounts/12/`)).status, 400);
    assert.equal((await put(`${seller.control}/faults`, { faults: [{ kind: "meteor" }] })).status, 400);
  });

  it("flushes cached policies on request so an IAM change applies at once", async () => {
    const role = await customRole({
      Version: "2012-10-17",
      Statement: [{ Effect: "Allow", Action: "aws-marketplace:*", Resource: "*" }],
    });
    const catalog = catalogClient(
      seller.endpoint,
      await assumeConnector(seller.endpoint, "backend", role.roleArn, role.externalId),
    );
    await catalog.send(list);
    const { IAMClient } = await import("@aws-sdk/client-iam");
    const iam = new IAMClient({
      region: "us-east-1",
      endpoint: process.env.AWS_ENDPOINT_URL,
      credentials: await motoAccountCredentials({
        endpoint: process.env.AWS_ENDPOINT_URL ?? "",
        accountId: role.accountId,
      }),
    });
    await iam.send(
      new PutRolePolicyCommand({
        RoleName: "MarketplaceConnector",
        PolicyName: "Deny",
        PolicyDocument: JSON.stringify({
          Version: "2012-10-17",
          Statement: [{ Effect: "Deny", Action: "aws-marketplace:ListEntities", Resource: "*" }],
        }),
      }),
    );
    await fetch(`${seller.endpoint}/_sandbox/iam/flush`, {
      method: "POST",
      body: JSON.stringify({ roleArn: role.roleArn }),
    });
    const err = await rejection(catalog.send(list));
    assert.equal(err.name, "AccessDeniedException");
    assert.match(err.message, /with an explicit deny/);
  });
});
