import assert from "node:assert/strict";
import { startSandbox } from "@flowstate/seller-sandbox/testing/start-sandbox";
import { expectRouteContract } from "@flowstate/shared/testing/route-contract";
import { afterAll, beforeAll, describe, it } from "vitest";
import { createApp } from "./app.ts";
import { type RunningConnector, startConnectorService } from "./testing/connector-service.ts";

describe("the connector-svc app", () => {
  let connector: RunningConnector;
  let stopSandbox: () => Promise<void>;
  beforeAll(async () => {
    const sandbox = await startSandbox();
    stopSandbox = sandbox.stop;
    connector = await startConnectorService({
      prefix: "cn_app",
      secret: "s".repeat(32),
      marketplaceEndpoint: sandbox.endpoint,
    });
  });
  afterAll(async () => {
    await connector.close();
    await stopSandbox();
  });

  it("serves exactly its routes of the public and internal registries, each checked against its schemas", () => {
    expectRouteContract(createApp(connector.deps, { checkResponses: true }), "connector-svc");
  });

  it("answers 401 to a caller that did not come through a gateway, on every path but the public template", async () => {
    for (const path of [
      "/v1/tenants/tnt_0123456789abcdefghij/integrations/marketplace",
      "/internal/v1/tenants/tnt_0123456789abcdefghij/marketplace-connector",
      "/v1/nothing-here",
    ]) {
      const res = await fetch(`${connector.url}${path}`);
      assert.equal(res.status, 401, path);
      assert.equal((await res.json()).code, "UNAUTHENTICATED");
    }
    const template = await fetch(`${connector.url}/v1/marketplace/connector-role/template.json`);
    assert.equal(template.status, 200);
    assert.equal(
      (await template.json()).Resources.MarketplaceConnectorRole.Properties.RoleName,
      "MarketplaceConnector",
    );
  });
});
