import assert from "node:assert/strict";
import { SearchAgreementsCommand } from "@aws-sdk/client-marketplace-agreement";
import { ListEntitiesCommand } from "@aws-sdk/client-marketplace-catalog";
import { describe, it } from "vitest";
import { agreementClient, assumeConnector, catalogClient } from "../testing/clients.ts";
import { useSellerSession } from "../testing/seller-fixture.ts";
import { rejection } from "../testing/seller-session.ts";
import { signedFetch } from "../testing/signed-fetch.ts";

const list = new ListEntitiesCommand({ Catalog: "AWSMarketplace", EntityType: "SaaSProduct" });

describe("credentials on the Marketplace APIs", () => {
  const seller = useSellerSession();

  it("refuses credentials the sandbox never issued with UnrecognizedClientException", async () => {
    const creds = { accessKeyId: "ASIAAAAAAAAAAAAAAAAA", secretAccessKey: "x".repeat(40), sessionToken: "token" };
    const err = await rejection(catalogClient(seller.endpoint, creds).send(list));
    assert.equal(err.name, "UnrecognizedClientException");
    assert.equal(err.$metadata.httpStatusCode, 403);
  });

  it("refuses issued keys with the wrong secret or without their session token", async () => {
    const wrongSecret = await rejection(
      catalogClient(seller.endpoint, { ...seller.credentials, secretAccessKey: "nope" }).send(list),
    );
    assert.equal(wrongSecret.name, "InvalidSignatureException");
    const noToken = await rejection(
      catalogClient(seller.endpoint, { ...seller.credentials, sessionToken: undefined }).send(list),
    );
    assert.equal(noToken.name, "UnrecognizedClientException");
  });

  it("refuses an unsigned request and one scoped to another region", async () => {
    const unsigned = await fetch(`${seller.endpoint}/ListEntities`, { method: "POST", body: "{}" });
    assert.equal(unsigned.status, 403);
    assert.equal(unsigned.headers.get("x-amzn-errortype"), "MissingAuthenticationTokenException");
    const { MarketplaceCatalogClient } = await import("@aws-sdk/client-marketplace-catalog");
    const elsewhere = new MarketplaceCatalogClient({
      region: "eu-central-1",
      endpoint: seller.endpoint,
      credentials: seller.credentials,
      maxAttempts: 1,
    });
    const err = await rejection(elsewhere.send(list));
    assert.equal(err.name, "InvalidSignatureException");
  });

  it("refuses expired credentials with ExpiredTokenException once the account's clock passes their expiry", async () => {
    const creds = await assumeConnector(seller.endpoint, "backend", seller.role.roleArn, seller.role.externalId, 900);
    const catalog = catalogClient(seller.endpoint, creds);
    await catalog.send(list);
    await fetch(`${seller.control}/clock`, { method: "PUT", body: JSON.stringify({ advanceSeconds: 901 }) });
    const err = await rejection(catalog.send(list));
    assert.equal(err.name, "ExpiredTokenException");
    const agreements = await rejection(
      agreementClient(seller.endpoint, creds).send(
        new SearchAgreementsCommand({ filters: [{ name: "PartyType", values: ["Proposer"] }] }),
      ),
    );
    assert.equal(agreements.name, "ExpiredTokenException");
    await fetch(`${seller.control}/clock`, { method: "PUT", body: JSON.stringify({ offsetSeconds: 0 }) });
    await catalog.send(list);
  });

  it("answers the Agreement API's UnknownOperationException for a target it does not serve, prototype names included", async () => {
    for (const operation of ["MakeCoffee", "constructor", "toString", "__proto__", "hasOwnProperty"]) {
      const r = await signedFetch(seller.endpoint, seller.credentials, {
        method: "POST",
        path: "/",
        body: "{}",
        headers: {
          "content-type": "application/x-amz-json-1.0",
          "x-amz-target": `AWSMPCommerceService_v20200301.${operation}`,
        },
      });
      assert.equal(r.status, 400, operation);
      assert.equal(r.errorType, "UnknownOperationException", operation);
    }
  });
});
