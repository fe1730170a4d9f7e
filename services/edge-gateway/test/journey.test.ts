import assert from "node:assert/strict";
import { recordSecret } from "@flowstate/shared/testing/secrets";
import { afterAll, beforeAll, describe, it } from "vitest";
import { type E2E, startE2E } from "./e2e-stack.ts";

describe("a tenant's life, through the gateway only", () => {
  let e2e: E2E;
  beforeAll(async () => {
    e2e = await startE2E("gw_journey");
  });
  afterAll(() => e2e.close());

  it("signs up, signs in, creates a tenant, enables offers, adds a member, transfers ownership, uses and revokes an API key, and soft-deletes the tenant", async () => {
    const { call } = e2e;
    const alice = await e2e.signUp();
    const bob = await e2e.signUp();
    assert.match(alice.sub, /^usr_/);

    const me = await call("GET", "/v1/users/me", { token: alice.token });
    assert.equal(me.status, 200);
    assert.equal(me.json.sub, alice.sub);

    const created = await call("POST", "/v1/tenants", { token: alice.token, body: { name: "Acme" } });
    assert.equal(created.status, 201, created.text);
    const tenantId: string = created.json.id;
    assert.equal(created.json.role, "owner");

    const enabled = await call("PUT", `/v1/tenants/${tenantId}/features`, {
      token: alice.token,
      body: { marketplace_offers: true },
    });
    assert.equal(enabled.status, 200, enabled.text);
    assert.equal(
      (await call("GET", `/v1/tenants/${tenantId}/features`, { token: alice.token })).json.marketplace_offers,
      true,
    );

    assert.equal((await call("GET", `/v1/tenants/${tenantId}`, { token: bob.token })).status, 404, "not a member yet");
    const invited = await call("POST", `/v1/tenants/${tenantId}/members`, {
      token: alice.token,
      body: { email: bob.email, role: "admin" },
    });
    assert.equal(invited.status, 201, invited.text);
    assert.equal(invited.json.status, "pending");
    assert.equal(
      (await call("GET", `/v1/tenants/${tenantId}`, { token: bob.token })).status,
      404,
      "not a member before accepting",
    );
    const [invitation] = (await call("GET", "/v1/users/me/invitations", { token: bob.token })).json.invitations;
    assert.equal(invitation.invitation_id, invited.json.invitation_id);
    const joined = await call("POST", `/v1/users/me/invitations/${invitation.invitation_id}/accept`, {
      token: bob.token,
    });
    assert.equal(joined.status, 200, joined.text);
    // Bob's "not a member" answer was cached a moment ago; accepting must not leave him locked out.
    const bobSees = await call("GET", `/v1/tenants/${tenantId}`, { token: bob.token });
    assert.equal(bobSees.status, 200, bobSees.text);
    assert.equal(bobSees.json.role, "admin");

    const asked = await call("POST", `/v1/tenants/${tenantId}/ownership-transfer`, {
      token: alice.token,
      body: { new_owner_sub: bob.sub },
    });
    assert.equal(asked.status, 202, asked.text);
    const transferred = await call("POST", `/v1/users/me/invitations/${asked.json.invitation_id}/accept`, {
      token: bob.token,
    });
    assert.equal(transferred.status, 200, transferred.text);
    assert.equal((await call("GET", `/v1/tenants/${tenantId}`, { token: bob.token })).json.owner_sub, bob.sub);
    // Alice's owner role was cached by the gateway; the acceptance's answer invalidated it.
    const aliceDeletes = await call("DELETE", `/v1/tenants/${tenantId}`, { token: alice.token });
    assert.equal(aliceDeletes.status, 403);
    assert.equal(aliceDeletes.json.code, "INSUFFICIENT_ROLE");

    const key = await call("POST", `/v1/tenants/${tenantId}/api-keys`, {
      token: bob.token,
      body: { name: "ci", scope: "read" },
    });
    assert.equal(key.status, 201, key.text);
    const secret = recordSecret(key.json.secret as string);
    const byKey = await call("GET", `/v1/tenants/${tenantId}`, { token: secret });
    assert.equal(byKey.status, 200, byKey.text);
    assert.equal((await call("PATCH", `/v1/tenants/${tenantId}`, { token: secret, body: { name: "x" } })).status, 403);
    const revoked = await call("DELETE", `/v1/tenants/${tenantId}/api-keys/${key.json.key_id}`, { token: bob.token });
    assert.equal(revoked.status, 204, revoked.text);
    assert.equal(
      (await call("GET", `/v1/tenants/${tenantId}`, { token: secret })).status,
      401,
      "the very next call with the revoked key",
    );

    const deleted = await call("DELETE", `/v1/tenants/${tenantId}`, { token: bob.token });
    assert.equal(deleted.status, 204, deleted.text);
    for (const who of [alice, bob]) {
      assert.equal((await call("GET", `/v1/tenants/${tenantId}`, { token: who.token })).status, 404);
      const list = await call("GET", "/v1/tenants", { token: who.token });
      assert.ok(!list.json.tenants.some((t: { id: string }) => t.id === tenantId));
    }
  });
});
