import assert from "node:assert/strict";
import type { TenantContext } from "@flowstate/contracts/internal/identity";
import { bodyless, sha256Base64url } from "@flowstate/shared/auth/identity-assertion";
import { afterAll, beforeAll, describe, it } from "vitest";
import { assertionHeaders } from "../testing/assertion.ts";
import { type Harness, startHarness, type TestUser } from "../testing/harness.ts";

/**
 * identity-svc's tenant routes on the seam (ADR 0012): the tenant rule runs on what the gateway
 * signed, before any verb, as at every other service; a write's credential is checked before that
 * rule, so a dead session is 401 whatever the signed role says.
 */
let h: Harness;
let owner: TestUser;
let member: TestUser;
let tenantId: string;
beforeAll(async () => {
  h = await startHarness({ prefix: "tenant_seam" });
  owner = await h.signUp();
  member = await h.signUp();
  tenantId = (await h.createTenant(owner)).id;
  await h.addMember(owner, tenantId, member, "member");
});
afterAll(() => h.close());

/** A request signed with the tenant context given, as a gateway would have signed it. */
const signed = (method: string, path: string, who: TestUser, tenant: TenantContext | undefined, body?: unknown) => {
  const text = body === undefined ? undefined : JSON.stringify(body);
  const binding = text ? { method, target: path, bodySha256: sha256Base64url(text) } : bodyless(method, path);
  return h.call(method, path, {
    headers: { ...assertionHeaders(h.secret, binding, who.identity, tenant), "content-type": "application/json" },
    ...(text === undefined ? {} : { raw: text }),
  });
};
const codeOf = async (res: Response) => [res.status, ((await res.json().catch(() => ({}))) as { code?: string }).code];

describe("identity-svc's tenant routes on the seam", () => {
  it("decide from the signed tenant: another tenant, or none, looks missing even to a member", async () => {
    const path = `/v1/tenants/${tenantId}`;
    assert.equal((await signed("GET", path, member, { tenant_id: tenantId, role: "member" })).status, 200);
    const other = { tenant_id: "tnt_0123456789abcdefghij", role: "owner" } as const;
    assert.deepEqual(await codeOf(await signed("GET", path, member, other)), [404, "NOT_FOUND"]);
    assert.deepEqual(await codeOf(await signed("GET", path, member, undefined)), [404, "NOT_FOUND"]);
  });

  it("refuse a role below the route's before the verb runs, with the gateway's problem", async () => {
    const path = `/v1/tenants/${tenantId}`;
    const res = await signed("PATCH", path, member, { tenant_id: tenantId, role: "member" }, { name: "Renamed" });
    assert.deepEqual(await codeOf(res), [403, "INSUFFICIENT_ROLE"]);
  });

  it("check a write's credential first: after sign-out, 401 whatever the signed role", async () => {
    const leaver = await h.signUp();
    await h.addMember(owner, tenantId, leaver, "member");
    assert.equal((await h.call("POST", "/v1/auth/signout", { as: leaver.identity })).status, 204);
    const path = `/v1/tenants/${tenantId}`;
    const asMember = { tenant_id: tenantId, role: "member" } as const;
    assert.deepEqual(await codeOf(await signed("PATCH", path, leaver, asMember, { name: "X" })), [
      401,
      "SESSION_REVOKED",
    ]);
    const notMine = { tenant_id: "tnt_0123456789abcdefghij", role: "owner" } as const;
    assert.deepEqual(await codeOf(await signed("PATCH", path, leaver, notMine, { name: "X" })), [
      401,
      "SESSION_REVOKED",
    ]);
  });
});
