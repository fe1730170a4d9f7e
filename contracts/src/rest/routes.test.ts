import assert from "node:assert/strict";
import { describe, it } from "vitest";
import { z } from "zod";
import { atLeast, SCOPE_CEILING } from "../auth/tenant-access.ts";
import { routes } from "./routes.ts";

const placeholders = (path: string) => [...path.matchAll(/\{([a-z_]+)\}/g)].map((m) => m[1]);

describe("the public route registry", () => {
  it("has unique ids and unique method and path pairs", () => {
    assert.equal(new Set(routes.map((r) => r.id)).size, routes.length);
    assert.equal(new Set(routes.map((r) => `${r.method} ${r.path}`)).size, routes.length);
  });

  it("declares a minimum role on every tenant route and only there, and tenant routes live under /v1/tenants/{id}", () => {
    for (const r of routes) {
      assert.equal(r.auth === "tenant", r.minRole !== undefined, r.id);
      if (r.auth === "tenant") assert.match(r.path, /^\/v1\/tenants\/\{id\}/, r.id);
      if (r.apiKey) assert.equal(r.auth, "tenant", `${r.id}: API keys are per tenant`);
      if (r.feature) assert.equal(r.auth, "tenant", `${r.id}: feature flags are per tenant`);
    }
  });

  it("lets an API key scope in only where the role that scope stands for is enough", () => {
    for (const r of routes.filter((r) => r.apiKey)) {
      assert.ok(atLeast(SCOPE_CEILING[r.apiKey as "read" | "write"], r.minRole ?? "member"), r.id);
    }
  });

  it("declares the marketplace_offers flag on every marketplace route of a tenant", () => {
    for (const r of routes.filter((r) => r.path.includes("/integrations/marketplace"))) {
      assert.equal(r.feature, "marketplace_offers", r.id);
    }
  });

  it("gives every path placeholder a params schema with exactly those keys", () => {
    for (const r of routes) {
      const names = placeholders(r.path);
      if (!names.length) {
        assert.equal(r.params, undefined, r.id);
        continue;
      }
      assert.ok(r.params instanceof z.ZodObject, r.id);
      assert.deepEqual(Object.keys(r.params.shape).sort(), [...names].sort(), r.id);
    }
  });

  it("documents at least one success answer (a redirect for a browser step) per route, no body on GET and at most an optional one on DELETE", () => {
    for (const r of routes) {
      assert.ok(
        Object.keys(r.responses).some((s) => Number(s) < 300 || (r.media?.response === "html" && Number(s) === 303)),
        r.id,
      );
      if (r.method === "GET") assert.equal(r.body, undefined, r.id);
      // Some clients and proxies drop DELETE bodies: one may only ever be optional (the password of
      // DELETE /v1/users/me, decisions.md Consent, for when the sign-in is not recent).
      if (r.method === "DELETE" && r.body) assert.ok(r.body.safeParse(undefined).success, r.id);
    }
  });
});
