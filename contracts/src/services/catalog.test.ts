import assert from "node:assert/strict";
import { describe, it } from "vitest";
import { type ServiceName, serviceNames, type UrlVariable, urlVariable } from "./catalog.ts";

describe("urlVariable", () => {
  it("names where each process listens as npm start, docker-compose and deploy/aws set it", () => {
    // The type names the same variable as the function, so config schemas keyed by it stay typed.
    const names = {
      "seller-sandbox": "MARKETPLACE_ENDPOINT_URL",
      "audit-svc": "AUDIT_URL",
      "connector-svc": "CONNECTOR_URL",
      "identity-svc": "IDENTITY_URL",
      "notify-svc": "NOTIFY_URL",
      "offers-svc": "OFFERS_URL",
      "partner-inbound": "PARTNER_INBOUND_URL",
      "partner-svc": "PARTNER_URL",
      "privacy-svc": "PRIVACY_URL",
      "web-console": "WEB_CONSOLE_URL",
      "edge-gateway": "EDGE_GATEWAY_URL",
      "mcp-gateway": "MCP_GATEWAY_URL",
    } as const satisfies { [S in ServiceName]: UrlVariable<S> };
    for (const name of serviceNames) assert.equal(urlVariable(name), names[name], name);
  });

  it("gives no two processes the same variable", () => {
    assert.equal(new Set(serviceNames.map(urlVariable)).size, serviceNames.length);
  });
});
