import assert from "node:assert/strict";
import { routes } from "@flowstate/contracts/rest/routes";
import { describe, it } from "vitest";
import { RouteTable } from "./route-table.ts";

describe("RouteTable", () => {
  const table = new RouteTable(routes);

  it("finds every registry route with its parameters", () => {
    for (const route of routes) {
      const path = route.path.replace(/\{([a-z_]+)\}/g, (_, name: string) => `${name}-value`);
      const match = table.match(route.method, path);
      assert.ok(match && "route" in match, route.id);
      assert.equal(match.route.id, route.id);
      for (const [, name] of route.path.matchAll(/\{([a-z_]+)\}/g)) assert.equal(match.params[name!], `${name}-value`);
    }
  });

  it("answers HEAD with the GET route", () => {
    const match = table.match("HEAD", "/v1/tenants/tnt_x");
    assert.ok(match && "route" in match);
    assert.equal(match.route.id, "tenants.get");
  });

  it("lists the allowed methods when only the method is wrong", () => {
    const match = table.match("PUT", "/v1/tenants/tnt_x");
    assert.ok(match && "allow" in match);
    assert.deepEqual(match.allow.split(", ").sort(), ["DELETE", "GET", "HEAD", "PATCH"]);
  });

  it("matches nothing for unknown paths, empty parameters or extra segments", () => {
    for (const path of [
      "/v1/nope",
      "/v1/tenants//members",
      "/v1/tenants/tnt_x/members/usr_y/extra",
      "/v1/tenants/tnt_x/",
      "",
    ]) {
      assert.equal(table.match("GET", path), null, path);
    }
  });
});
