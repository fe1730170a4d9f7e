import assert from "node:assert/strict";
import { afterAll, beforeAll, describe, it } from "vitest";
import { type E2E, startE2E } from "./e2e-stack.ts";

describe("rate limits through the gateway", () => {
  let e2e: E2E;
  beforeAll(async () => {
    e2e = await startE2E("gw_limits", {
      RATE_LIMIT_CREDENTIAL_PER_SEC: 0.2,
      RATE_LIMIT_CREDENTIAL_BURST: 5,
      RATE_LIMIT_TENANT_PER_SEC: 0.2,
      RATE_LIMIT_TENANT_BURST: 7,
    });
  });
  afterAll(() => e2e.close());

  it("limits each account, then each tenant across its members, with 429 RATE_LIMITED and Retry-After", async () => {
    const [owner, member] = await Promise.all([e2e.signUp(), e2e.signUp()]);
    const tenantId = (await e2e.call("POST", "/v1/tenants", { token: owner.token, body: { name: "Busy" } })).json
      .id as string; // owner: 1
    const invited = await e2e.call("POST", `/v1/tenants/${tenantId}/members`, {
      token: owner.token,
      body: { email: member.email, role: "member" },
    }); // owner: 2, tenant: 1
    assert.equal(invited.status, 201);
    // Accepted straight at identity-svc, so the member's credential bucket starts full for the count below.
    const accepted = await e2e.identity.call("POST", `/v1/users/me/invitations/${invited.json.invitation_id}/accept`, {
      as: { kind: "user", sub: member.sub, sid: member.sid },
    });
    assert.equal(accepted.status, 200);
    const statuses = [];
    for (let i = 0; i < 4; i++)
      statuses.push((await e2e.call("GET", `/v1/tenants/${tenantId}`, { token: owner.token })).status); // owner: 3..6, tenant: 2..4
    assert.deepEqual(statuses, [200, 200, 200, 429], "the owner's credential allows a burst of 5");
    const limited = await e2e.call("GET", "/v1/users/me", { token: owner.token });
    assert.equal(limited.status, 429);
    assert.equal(limited.json.code, "RATE_LIMITED");
    assert.ok(Number(limited.headers.get("retry-after")) >= 1);

    // The tenant has served 4 of its 7; the member's own credential is fresh, the tenant's bucket is not.
    const memberStatuses = [];
    for (let i = 0; i < 4; i++)
      memberStatuses.push((await e2e.call("GET", `/v1/tenants/${tenantId}`, { token: member.token })).status);
    assert.deepEqual(memberStatuses, [200, 200, 200, 429]);
    assert.equal(
      (await e2e.call("GET", "/v1/users/me", { token: member.token })).status,
      200,
      "outside the tenant the member is not limited",
    );
  });
});
