import assert from "node:assert/strict";
import { atLeast } from "@flowstate/contracts/auth/tenant-access";
import type { RouteSpec } from "@flowstate/contracts/rest/route";
import { identityRoutes } from "@flowstate/contracts/rest/routes";
import { afterAll, beforeAll, describe, it } from "vitest";
import { fillPath, type Harness, startHarness, type TestUser } from "../testing/harness.ts";

/**
 * The domain's own authorization on every tenant route, driven by the registry: whatever the
 * gateway did, identity-svc answers 404 to non-members and a foreign tenant's key, and 403 to a
 * role below the route's minRole or an API key the route does not allow.
 */
let h: Harness;
let owner: TestUser;
let admin: TestUser;
let member: TestUser;
let outsider: TestUser;
let tenantId: string;
let otherTenantId: string;
beforeAll(async () => {
  h = await startHarness({ prefix: "id_tsec" });
  [owner, admin, member, outsider] = await Promise.all([h.signUp(), h.signUp(), h.signUp(), h.signUp()]);
  tenantId = (await h.createTenant(owner)).id;
  otherTenantId = (await h.createTenant(outsider)).id;
  await h.addMember(owner, tenantId, admin, "admin");
  await h.addMember(owner, tenantId, member, "member");
});
afterAll(() => h.close());

const tenantRoutes = identityRoutes.filter((r) => r.auth === "tenant") as readonly RouteSpec[];

/** A body that passes validation, so the answer is about authorization, not shape. */
function bodyFor(r: RouteSpec): unknown {
  switch (r.id) {
    case "tenants.rename":
      return { name: "x" };
    case "tenants.ownership_transfer":
      return { new_owner_sub: member.sub };
    case "members.add":
      return { email: outsider.email, role: "member" };
    case "members.update":
      return { role: "member" };
    case "features.update":
      return { marketplace_offers: true };
    case "api_keys.create":
      return { name: "k", scope: "read" };
    default:
      return undefined;
  }
}
// Target a member whose change is harmless and repeatable for the role checks (never the owner).
const pathFor = (r: RouteSpec, tenant: string) =>
  fillPath(r.path, { id: tenant, sub: member.sub, key_id: "key_0000000000aaaaaaaaaa" });

describe("tenant routes' own authorization", () => {
  it("answers 404 NOT_FOUND to a non-member on every tenant route, exactly as for a missing tenant", async () => {
    for (const r of tenantRoutes) {
      const res = await h.call(r.method, pathFor(r, tenantId), { as: outsider.identity, body: bodyFor(r) });
      assert.equal(res.status, 404, `${r.id}`);
      assert.equal(((await res.json()) as { code: string }).code, "NOT_FOUND", r.id);
      const missing = await h.call(r.method, pathFor(r, "tnt_0000000000nonexistent"), {
        as: outsider.identity,
        body: bodyFor(r),
      });
      assert.equal(missing.status, 404, `${r.id} missing`);
    }
  });

  it("answers 403 INSUFFICIENT_ROLE when the caller's role is below the route's minimum", async () => {
    for (const r of tenantRoutes) {
      for (const [who, role] of [
        [member, "member"],
        [admin, "admin"],
      ] as const) {
        if (atLeast(role, r.minRole!)) continue;
        const res = await h.call(r.method, pathFor(r, tenantId), { as: who.identity, body: bodyFor(r) });
        assert.equal(res.status, 403, `${r.id} as ${role}`);
        assert.equal(((await res.json()) as { code: string }).code, "INSUFFICIENT_ROLE", `${r.id} as ${role}`);
      }
    }
  });

  it("lets an API key use only the routes that allow keys, with enough scope, in its own tenant", async () => {
    // Real keys: a write is refused before anything else when the key is not live (live-credential.ts).
    const foreignKey = await h.apiKey(outsider, otherTenantId, "write");
    const readKey = await h.apiKey(owner, tenantId, "read");
    for (const r of tenantRoutes) {
      const foreign = await h.call(r.method, pathFor(r, tenantId), { as: foreignKey, body: bodyFor(r) });
      assert.equal(foreign.status, 404, `${r.id} with another tenant's key`);
      const res = await h.call(r.method, pathFor(r, tenantId), { as: readKey, body: bodyFor(r) });
      if (r.apiKey === "read") assert.equal(res.status, 200, `${r.id} with a read key`);
      else {
        assert.equal(res.status, 403, `${r.id} with a read key`);
        const code = ((await res.json()) as { code: string }).code;
        assert.equal(code, r.apiKey === "write" ? "INSUFFICIENT_SCOPE" : "API_KEY_NOT_ALLOWED", r.id);
      }
    }
  });

  it("answers 403 API_KEY_NOT_ALLOWED to a key on the user-only routes", async () => {
    const key = await h.apiKey(owner, tenantId, "write");
    for (const r of identityRoutes.filter((x) => x.auth === "user")) {
      const body =
        r.method === "GET" || r.method === "DELETE" ? undefined : r.id === "tenants.create" ? { name: "x" } : {};
      const path = r.path.replace("{client_ref}", "cli_0000000000notgranted");
      const res = await h.call(r.method, path, { as: key, body });
      assert.ok([400, 403].includes(res.status), `${r.id}: ${res.status}`);
      if (res.status === 403) assert.equal(((await res.json()) as { code: string }).code, "API_KEY_NOT_ALLOWED", r.id);
    }
  });

  it("gives each of many concurrent readers of a tenant its own answer (reads share statements under load)", async () => {
    // Far more requests than pool connections, so reads are grouped into shared statements
    // (verbs/tenant-view.ts): a mix-up between callers would show as a wrong role or a 200 for a stranger.
    const expected = [
      [owner, tenantId, "owner"],
      [admin, tenantId, "admin"],
      [member, tenantId, "member"],
      [outsider, tenantId, 404],
      [outsider, otherTenantId, "owner"],
      [member, otherTenantId, 404],
      [owner, "tnt_0000000000nonexistent", 404],
    ] as const;
    const calls = Array.from({ length: 140 }, (_, i) => expected[i % expected.length]!);
    const answers = await Promise.all(
      calls.map(async ([who, tenant]) => {
        const res = await h.call("GET", `/v1/tenants/${tenant}`, { as: who.identity });
        return res.status === 200 ? ((await res.json()) as { id: string; role: string }) : res.status;
      }),
    );
    answers.forEach((answer, i) => {
      const [, tenant, want] = calls[i]!;
      if (want === 404) assert.equal(answer, 404, `call ${i}`);
      else assert.deepEqual(typeof answer === "object" && [answer.id, answer.role], [tenant, want], `call ${i}`);
    });
  });
});
