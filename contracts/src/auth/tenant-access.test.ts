import assert from "node:assert/strict";
import { describe, it } from "vitest";
import { atLeast, decideTenantAccess, keyRole } from "./tenant-access.ts";

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
});
