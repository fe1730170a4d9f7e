import assert from "node:assert/strict";
import { describe, it } from "vitest";
import { atLeast, decideSignedTenantAccess, decideTenantAccess, keyRole } from "./tenant-access.ts";

describe("the tenant access rule", () => {
  it("ranks owner over admin over member", () => {
    assert.ok(atLeast("owner", "admin") && atLeast("admin", "admin") && atLeast("admin", "member"));
    assert.ok(!atLeast("member", "admin") && !atLeast("admin", "owner"));
  });

  it("gives a key its scope's role while its creator is an admin or owner, and none after", () => {
    assert.equal(keyRole("read", "owner"), "member");
    assert.equal(keyRole("write", "owner"), "admin");
    assert.equal(keyRole("write", "admin"), "admin");
    assert.equal(keyRole("write", "member"), null);
    assert.equal(keyRole("read", null), null);
  });

  it("decides users by role and keys by liveness, route kind, scope and role, in that order", () => {
    const read = { minRole: "member", apiKey: "read" } as const;
    const write = { minRole: "admin", apiKey: "write" } as const;
    const tokensOnly = { minRole: "member", apiKey: false } as const;
    const key = (scope: "read" | "write", creatorRole: "owner" | "admin" | "member" | null) =>
      ({ kind: "api_key", scope, creatorRole }) as const;
    assert.deepEqual(decideTenantAccess(read, { kind: "user", role: null }), { ok: false, code: "NOT_FOUND" });
    assert.deepEqual(decideTenantAccess(write, { kind: "user", role: "member" }), {
      ok: false,
      code: "INSUFFICIENT_ROLE",
    });
    assert.deepEqual(decideTenantAccess(write, { kind: "user", role: "owner" }), { ok: true, role: "owner" });
    assert.deepEqual(decideTenantAccess(read, key("read", "member")), { ok: false, code: "INVALID_API_KEY" });
    assert.deepEqual(decideTenantAccess(tokensOnly, key("write", "owner")), { ok: false, code: "API_KEY_NOT_ALLOWED" });
    assert.deepEqual(decideTenantAccess(write, key("read", "owner")), { ok: false, code: "INSUFFICIENT_SCOPE" });
    assert.deepEqual(decideTenantAccess(write, key("write", "owner")), { ok: true, role: "admin" });
    assert.deepEqual(decideTenantAccess({ minRole: "owner", apiKey: "write" }, key("write", "owner")), {
      ok: false,
      code: "INSUFFICIENT_ROLE",
    });
  });

  it("decides a signed call by the path's tenant, then a key's route kind and scope, then the signed role", () => {
    const write = { minRole: "admin", apiKey: "write" } as const;
    const tokensOnly = { minRole: "member", apiKey: false } as const;
    const signed = (tenant_id: string, role: "owner" | "admin" | "member") => ({ tenant_id, role });
    const user = (s: ReturnType<typeof signed> | undefined) => ({ kind: "user", signed: s }) as const;
    const key = (scope: "read" | "write", s: ReturnType<typeof signed>, keyTenantId = s.tenant_id) =>
      ({ kind: "api_key", scope, keyTenantId, signed: s }) as const;
    const refused = (code: string) => ({ ok: false, code });
    assert.deepEqual(decideSignedTenantAccess(write, "tnt_a", user(undefined)), refused("NOT_FOUND"));
    assert.deepEqual(decideSignedTenantAccess(write, "tnt_a", user(signed("tnt_b", "owner"))), refused("NOT_FOUND"));
    assert.deepEqual(
      decideSignedTenantAccess(write, "tnt_a", key("write", signed("tnt_a", "admin"), "tnt_b")),
      refused("NOT_FOUND"),
    );
    assert.deepEqual(
      decideSignedTenantAccess(write, "tnt_a", user(signed("tnt_a", "member"))),
      refused("INSUFFICIENT_ROLE"),
    );
    assert.deepEqual(decideSignedTenantAccess(write, "tnt_a", user(signed("tnt_a", "owner"))), {
      ok: true,
      role: "owner",
    });
    assert.deepEqual(
      decideSignedTenantAccess(tokensOnly, "tnt_a", key("write", signed("tnt_a", "admin"))),
      refused("API_KEY_NOT_ALLOWED"),
    );
    assert.deepEqual(
      decideSignedTenantAccess(write, "tnt_a", key("read", signed("tnt_a", "member"))),
      refused("INSUFFICIENT_SCOPE"),
    );
    // The signed role is the effective one: an owner's write key was signed as admin and passes an admin route.
    assert.deepEqual(decideSignedTenantAccess(write, "tnt_a", key("write", signed("tnt_a", "admin"))), {
      ok: true,
      role: "admin",
    });
    assert.deepEqual(
      decideSignedTenantAccess({ minRole: "owner", apiKey: "write" }, "tnt_a", key("write", signed("tnt_a", "admin"))),
      refused("INSUFFICIENT_ROLE"),
    );
  });
});
