import assert from "node:assert/strict";
import type { TenantRole } from "@flowstate/contracts/ids";
import { defineRoute, type RouteSpec } from "@flowstate/contracts/rest/route";
import { DomainError } from "@flowstate/shared/errors/domain-error";
import { describe, it } from "vitest";
import { z } from "zod";
import { randomId } from "../../test/keys.ts";
import { CachedLookup } from "../cache/cached-lookup.ts";
import { InvalidationLog } from "../cache/invalidation-log.ts";
import type { AccessState } from "./access-state.ts";
import type { CallerIdentity } from "./authenticate.ts";
import { authorizeTenant } from "./tenant-access.ts";

const route = (over: Partial<RouteSpec>): RouteSpec =>
  defineRoute({
    id: "t",
    method: "POST",
    path: "/v1/tenants/{id}/things",
    service: "offers-svc",
    auth: "tenant",
    minRole: "member",
    summary: "t",
    responses: { 200: z.object({}) },
    ...over,
  });

/** Memberships as identity-svc would answer them, through the real cache. */
function state(roles: Record<string, TenantRole>): AccessState {
  const log = new InvalidationLog(60_000);
  const memberships = new CachedLookup<TenantRole>({
    log,
    max: 10,
    ttlMs: 1_000,
    negativeTtlMs: 1_000,
    fetch: async (key) => roles[key] ?? null,
    deps: () => [],
  });
  return { memberships } as unknown as AccessState;
}

const rejects = (p: Promise<unknown>, kind: string, code: string) =>
  assert.rejects(p, (err) => err instanceof DomainError && err.kind === kind && err.code === code);

describe("authorizeTenant", () => {
  const tenant = randomId("tnt");
  const sub = randomId("usr");
  const user: CallerIdentity = { kind: "user", sub, sid: randomId("ses") };
  const key = (scope: "read" | "write", tenantId = tenant): CallerIdentity => ({
    kind: "api_key",
    sub,
    key_id: randomId("key"),
    tenant_id: tenantId,
    scope,
  });

  it("gives a member the tenant context with their role", async () => {
    assert.deepEqual(await authorizeTenant(route({}), tenant, user, state({ [`${tenant} ${sub}`]: "admin" })), {
      tenant_id: tenant,
      role: "admin",
    });
  });

  it("answers 404 alike for a malformed id, a tenant the caller is not in, and another tenant's key", async () => {
    const s = state({ [`${tenant} ${sub}`]: "owner" });
    await rejects(authorizeTenant(route({}), "not-an-id", user, s), "not_found", "NOT_FOUND");
    await rejects(authorizeTenant(route({}), randomId("tnt"), user, s), "not_found", "NOT_FOUND");
    await rejects(
      authorizeTenant(route({ apiKey: "read" }), tenant, key("write", randomId("tnt")), s),
      "not_found",
      "NOT_FOUND",
    );
  });

  it("refuses a role below the route's minimum with 403", async () => {
    await rejects(
      authorizeTenant(route({ minRole: "owner" }), tenant, user, state({ [`${tenant} ${sub}`]: "admin" })),
      "forbidden",
      "INSUFFICIENT_ROLE",
    );
  });

  it("refuses an API key on a route that takes none, and a read key on a write route", async () => {
    const s = state({ [`${tenant} ${sub}`]: "admin" });
    await rejects(authorizeTenant(route({}), tenant, key("write"), s), "forbidden", "API_KEY_NOT_ALLOWED");
    await rejects(
      authorizeTenant(route({ apiKey: "write" }), tenant, key("read"), s),
      "forbidden",
      "INSUFFICIENT_SCOPE",
    );
    assert.deepEqual(await authorizeTenant(route({ apiKey: "write" }), tenant, key("write"), s), {
      tenant_id: tenant,
      role: "admin",
    });
  });

  it("refuses a key as invalid once its creator is no longer an admin or owner, or no longer a member", async () => {
    await rejects(
      authorizeTenant(route({ apiKey: "read" }), tenant, key("read"), state({ [`${tenant} ${sub}`]: "member" })),
      "unauthenticated",
      "INVALID_API_KEY",
    );
    await rejects(
      authorizeTenant(route({ apiKey: "read" }), tenant, key("read"), state({})),
      "unauthenticated",
      "INVALID_API_KEY",
    );
  });

  it("gives a key its scope's role, never the creator's higher one", async () => {
    await rejects(
      authorizeTenant(
        route({ apiKey: "write", minRole: "owner" }),
        tenant,
        key("write"),
        state({ [`${tenant} ${sub}`]: "owner" }),
      ),
      "forbidden",
      "INSUFFICIENT_ROLE",
    );
  });
});
