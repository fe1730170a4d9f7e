import assert from "node:assert/strict";
import type { SentInvitation } from "@flowstate/contracts/rest/identity/invitations";
import type { Tenant } from "@flowstate/contracts/rest/identity/tenants";
import { afterAll, beforeAll, describe, it } from "vitest";
import { type Harness, invalidationsOf, outboxEvents, startHarness } from "../testing/harness.ts";

let h: Harness;
beforeAll(async () => {
  h = await startHarness({ prefix: "id_tenants" });
});
afterAll(() => h.close());

describe("tenants", () => {
  it("creates a tenant whose creator is the owner, and announces it in the same transaction", async () => {
    const u = await h.signUp();
    const res = await h.call("POST", "/v1/tenants", { as: u.identity, body: { name: "  Acme GmbH " } });
    assert.equal(res.status, 201);
    const t = (await res.json()) as Tenant;
    assert.match(t.id, /^tnt_/);
    assert.equal(res.headers.get("location"), `/v1/tenants/${t.id}`);
    assert.deepEqual(
      { name: t.name, owner_sub: t.owner_sub, role: t.role },
      { name: "Acme GmbH", owner_sub: u.sub, role: "owner" },
    );
    const [event] = (await outboxEvents(h, "TenantCreated.v1")).filter((e) => e.envelope.tenant_id === t.id);
    assert.deepEqual(event?.envelope.data, { tenant_id: t.id, owner_sub: u.sub });
  });

  it("lists the caller's tenants with their role in each, and gets one", async () => {
    const owner = await h.signUp();
    const member = await h.signUp();
    const a = await h.createTenant(owner, "A");
    const b = await h.createTenant(owner, "B");
    await h.addMember(owner, b.id, member, "member");
    const mine = (await (await h.call("GET", "/v1/tenants", { as: member.identity })).json()) as { tenants: Tenant[] };
    assert.deepEqual(
      mine.tenants.map((t) => [t.id, t.role, t.owner_sub]),
      [[b.id, "member", owner.sub]],
    );
    const ownerList = (await (await h.call("GET", "/v1/tenants", { as: owner.identity })).json()) as {
      tenants: Tenant[];
    };
    assert.deepEqual(
      ownerList.tenants.map((t) => t.id),
      [a.id, b.id],
    );
    const got = await h.call("GET", `/v1/tenants/${b.id}`, { as: member.identity });
    assert.equal(got.status, 200);
    assert.equal(((await got.json()) as Tenant).role, "member");
  });

  it("renames a tenant (admin), once per actual change", async () => {
    const owner = await h.signUp();
    const admin = await h.signUp();
    const t = await h.createTenant(owner);
    await h.addMember(owner, t.id, admin, "admin");
    const res = await h.call("PATCH", `/v1/tenants/${t.id}`, { as: admin.identity, body: { name: "Renamed" } });
    assert.equal(res.status, 200);
    assert.equal(((await res.json()) as Tenant).name, "Renamed");
    await h.call("PATCH", `/v1/tenants/${t.id}`, { as: admin.identity, body: { name: "Renamed" } });
    assert.equal((await outboxEvents(h, "TenantRenamed.v1")).filter((e) => e.envelope.tenant_id === t.id).length, 1);
  });

  it("soft-deletes a tenant (owner): it then looks missing to everyone and the gateway is told", async () => {
    const owner = await h.signUp();
    const member = await h.signUp();
    const t = await h.createTenant(owner);
    await h.addMember(owner, t.id, member, "member");
    const res = await h.call("DELETE", `/v1/tenants/${t.id}`, { as: owner.identity });
    assert.equal(res.status, 204);
    assert.deepEqual(invalidationsOf(res), [
      { scope: "membership", tenant_id: t.id },
      { scope: "api_key", tenant_id: t.id },
    ]);
    for (const u of [owner, member]) {
      assert.equal((await h.call("GET", `/v1/tenants/${t.id}`, { as: u.identity })).status, 404);
      const list = (await (await h.call("GET", "/v1/tenants", { as: u.identity })).json()) as { tenants: Tenant[] };
      assert.equal(list.tenants.length, 0);
    }
    const gw = { kind: "service", service: "edge-gateway" } as const;
    assert.equal((await h.call("GET", `/internal/v1/tenants/${t.id}/members/${owner.sub}`, { as: gw })).status, 404);
    assert.equal(
      (await outboxEvents(h, "TenantSoftDeleted.v1")).filter((e) => e.envelope.tenant_id === t.id).length,
      1,
    );
  });

  it("transfers ownership once the member accepts; the previous owner becomes an admin", async () => {
    const owner = await h.signUp();
    const next = await h.signUp();
    const t = await h.createTenant(owner);
    await h.addMember(owner, t.id, next, "member");
    const res = await h.call("POST", `/v1/tenants/${t.id}/ownership-transfer`, {
      as: owner.identity,
      body: { new_owner_sub: next.sub },
    });
    assert.equal(res.status, 202);
    const pending = (await res.json()) as SentInvitation;
    assert.deepEqual(
      { kind: pending.kind, role: pending.role, status: pending.status, invitee: pending.invitee_sub },
      { kind: "ownership", role: "owner", status: "pending", invitee: next.sub },
    );
    const before = (await (await h.call("GET", `/v1/tenants/${t.id}`, { as: owner.identity })).json()) as Tenant;
    assert.equal(before.owner_sub, owner.sub, "nothing changes until the new owner accepts");
    const accepted = await h.call("POST", `/v1/users/me/invitations/${pending.invitation_id}/accept`, {
      as: next.identity,
    });
    assert.equal(accepted.status, 200);
    assert.deepEqual(invalidationsOf(accepted), [
      { scope: "membership", tenant_id: t.id, sub: owner.sub },
      { scope: "membership", tenant_id: t.id, sub: next.sub },
    ]);
    const after = (await (await h.call("GET", `/v1/tenants/${t.id}`, { as: owner.identity })).json()) as Tenant;
    assert.deepEqual({ owner: after.owner_sub, role: after.role }, { owner: next.sub, role: "admin" });
    // The old owner can no longer delete it; the new one can.
    assert.equal((await h.call("DELETE", `/v1/tenants/${t.id}`, { as: owner.identity })).status, 403);
    assert.equal((await h.call("DELETE", `/v1/tenants/${t.id}`, { as: next.identity })).status, 204);
  });

  it("refuses a transfer to a non-member (422 NOT_A_MEMBER) or to oneself (422 ALREADY_OWNER)", async () => {
    const owner = await h.signUp();
    const stranger = await h.signUp();
    const t = await h.createTenant(owner);
    const res = await h.call("POST", `/v1/tenants/${t.id}/ownership-transfer`, {
      as: owner.identity,
      body: { new_owner_sub: stranger.sub },
    });
    assert.equal(res.status, 422);
    assert.equal(((await res.json()) as { code: string }).code, "NOT_A_MEMBER");
    const self = await h.call("POST", `/v1/tenants/${t.id}/ownership-transfer`, {
      as: owner.identity,
      body: { new_owner_sub: owner.sub },
    });
    assert.equal(((await self.json()) as { code: string }).code, "ALREADY_OWNER");
    // Refused work is rolled back whole: no event escapes it.
    const events = await outboxEvents(h, "TenantOwnershipTransferred.v1");
    assert.equal(events.filter((e) => e.envelope.tenant_id === t.id).length, 0);
  });
});
