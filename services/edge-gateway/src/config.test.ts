import assert from "node:assert/strict";
import { routes } from "@flowstate/contracts/rest/routes";
import { serviceCatalog, serviceNames, urlVariable } from "@flowstate/contracts/services/catalog";
import { describe, it } from "vitest";
import { GatewayConfig, upstreamUrls } from "./config.ts";

// Every catalog service's URL variable at its own local port, the way `npm start` sets them all.
const everyUrl = Object.fromEntries(
  serviceNames.map((name) => [urlVariable(name), `http://127.0.0.1:${serviceCatalog[name].port}`]),
);

describe("the gateway's upstream variables (derived from the catalog and the registry)", () => {
  it("relays every registry route to its service's URL variable", () => {
    const urls: Partial<Record<string, string>> = upstreamUrls(GatewayConfig.parse(everyUrl));
    for (const route of routes) {
      assert.equal(urls[route.service], everyUrl[urlVariable(route.service)], `${route.id} (${route.service})`);
    }
  });

  it("makes an upstream of nothing but the services that own a registry route", () => {
    const owners = new Set<string>(routes.map((r) => r.service));
    assert.deepEqual(Object.keys(upstreamUrls(GatewayConfig.parse(everyUrl))).sort(), [...owners].sort());
  });

  it("keeps the variable names the deployments, tests and docs use (typed properties too)", () => {
    const c = GatewayConfig.parse(everyUrl);
    const read = [
      c.IDENTITY_URL,
      c.CONNECTOR_URL,
      c.OFFERS_URL,
      c.PRIVACY_URL,
      c.AUDIT_URL,
      c.PARTNER_URL,
      c.NOTIFY_URL,
    ];
    const names = ["IDENTITY", "CONNECTOR", "OFFERS", "PRIVACY", "AUDIT", "PARTNER", "NOTIFY"];
    assert.deepEqual(
      read,
      names.map((n) => everyUrl[`${n}_URL`]),
    );
    assert.equal(c.WEB_CONSOLE_URL, everyUrl.WEB_CONSOLE_URL);
  });

  it("requires IDENTITY_URL and leaves every other service unset until it is deployed", () => {
    const missing = GatewayConfig.safeParse({});
    assert.equal(missing.success, false);
    assert.ok(missing.error?.issues.some((i) => i.path.join(".") === "IDENTITY_URL"));

    const urls = upstreamUrls(GatewayConfig.parse({ IDENTITY_URL: "http://127.0.0.1:8081" }));
    assert.deepEqual(
      Object.entries(urls).filter(([, url]) => url !== undefined),
      [["identity-svc", "http://127.0.0.1:8081"]],
    );
  });

  it("refuses a value that is not an http(s) URL for any routed service", () => {
    for (const service of new Set(routes.map((r) => r.service))) {
      const variable = urlVariable(service);
      const parsed = GatewayConfig.safeParse({ ...everyUrl, [variable]: "ftp://127.0.0.1:1" });
      assert.equal(parsed.success, false, variable);
      assert.ok(
        parsed.error?.issues.some((i) => i.path.join(".") === variable),
        variable,
      );
    }
  });
});
