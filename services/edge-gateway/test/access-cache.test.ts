import assert from "node:assert/strict";
import { afterAll, beforeAll, describe, it } from "vitest";
import { type Account, type E2E, startE2E } from "./e2e-stack.ts";

/**
 * The gateway caches who may do what in a tenant, and drops a cached answer only when identity-svc
 * names it in the flowstate-invalidate header of a write it relayed (or an event says so): a write
 * that changes no access (a rename) drops nothing. So every change of access must be named, grants
 * as well as revocations, or a cached answer outlives it.
 */
describe("the gateway's cached tenant access follows every change of access at once", () => {
  let e2e: E2E;
  let owner: Account;
  let carol: Account;
  let tenantId: string;
  beforeAll(async () => {
    e2e = await startE2E("gw_access_cache");
    owner = await e2e.signUp();
    carol = await e2e.signUp();
    const created = await e2e.call("POST", "/v1/tenants", { token: owner.token, body: { name: "Cache" } });
    tenantId = created.json.id;
    await e2e.addMember(owner, tenantId, carol, "member");
  });
  afterAll(() => e2e.close());

  const keysAs = (who: Account) => e2e.call("GET", `/v1/tenants/${tenantId}/api-keys`, { token: who.token });
  const setRole = (role: string) =>
    e2e.call("PATCH", `/v1/tenants/${tenantId}/members/${carol.sub}`, { token: owner.token, body: { role } });

  it("raises and lowers a member's role for her very next call, a rename in between", async () => {
    // Carol's role (member) is cached by her first calls.
    assert.equal((await e2e.call("GET", `/v1/tenants/${tenantId}`, { token: carol.token })).status, 200);
    const refused = await keysAs(carol);
    assert.equal(refused.status, 403, refused.text);
    assert.equal(refused.json.code, "INSUFFICIENT_ROLE");

    const raised = await setRole("admin");
    assert.equal(raised.status, 200, raised.text);
    const allowed = await keysAs(carol);
    assert.equal(allowed.status, 200, allowed.text);

    // A rename changes no access: Carol stays an admin.
    const renamed = await e2e.call("PATCH", `/v1/tenants/${tenantId}`, {
      token: owner.token,
      body: { name: "Cache renamed" },
    });
    assert.equal(renamed.status, 200, renamed.text);
    assert.equal((await keysAs(carol)).status, 200);

    assert.equal((await setRole("member")).status, 200);
    const lowered = await keysAs(carol);
    assert.equal(lowered.status, 403, lowered.text);
    assert.equal(lowered.json.code, "INSUFFICIENT_ROLE");
  });
});
