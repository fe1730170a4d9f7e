import assert from "node:assert/strict";
import type { Member } from "@flowstate/contracts/rest/identity/members";
import { afterAll, beforeAll, describe, it } from "vitest";
import { type Harness, invalidationsOf, outboxEvents, startHarness } from "../testing/harness.ts";

let h: Harness;
beforeAll(async () => {
  h = await startHarness({ prefix: "id_members" });
});
afterAll(() => h.close());

const code = async (res: Response) => ((await res.json()) as { code: string }).code;

describe("memberships", () => {
  it("adds an existing user by e-mail (any case), lists members owner first, and announces the addition", async () => {
    const owner = await h.signUp();
    const alice = await h.signUp({ name: "Alice" });
    const t = await h.createTenant(owner);
    const res = await h.call("POST", `/v1/tenants/${t.id}/members`, {
      as: owner.identity,
      body: { email: alice.email.toUpperCase(), role: "admin" },
    });
    assert.equal(res.status, 201);
    const added = (await res.json()) as Member;
    assert.deepEqual(
      { sub: added.sub, role: added.role, name: added.name },
      { sub: alice.sub, role: "admin", name: "Alice" },
    );
    const list = (await (await h.call("GET", `/v1/tenants/${t.id}/members`, { as: alice.identity })).json()) as {
      members: Member[];
    };
    assert.deepEqual(
      list.members.map((m) => [m.sub, m.role]),
      [
        [owner.sub, "owner"],
        [alice.sub, "admin"],
      ],
    );
    const events = (await outboxEvents(h, "MembershipAdded.v1")).filter((e) => e.envelope.tenant_id === t.id);
    assert.deepEqual(
      events.map((e) => e.envelope.data),
      [{ tenant_id: t.id, sub: alice.sub, role: "admin" }],
    );
  });

  it("refuses an unknown e-mail (404 USER_NOT_FOUND) and a second membership (409 ALREADY_MEMBER)", async () => {
    const owner = await h.signUp();
    const bob = await h.signUp();
    const t = await h.createTenant(owner);
    const unknown = await h.call("POST", `/v1/tenants/${t.id}/members`, {
      as: owner.identity,
      body: { email: "nobody@example.test", role: "member" },
    });
    assert.equal(unknown.status, 404);
    assert.equal(await code(unknown), "USER_NOT_FOUND");
    await h.addMember(owner, t.id, bob, "member");
    const again = await h.call("POST", `/v1/tenants/${t.id}/members`, {
      as: owner.identity,
      body: { email: bob.email, role: "admin" },
    });
    assert.equal(again.status, 409);
    assert.equal(await code(again), "ALREADY_MEMBER");
    const asOwner = await h.call("POST", `/v1/tenants/${t.id}/members`, {
      as: owner.identity,
      body: { email: bob.email, role: "owner" },
    });
    assert.equal(asOwner.status, 400, "owner is not an assignable role");
  });

  it("changes a role and tells the gateway; the owner can be neither demoted nor removed (409 LAST_OWNER)", async () => {
    const owner = await h.signUp();
    const admin = await h.signUp();
    const carol = await h.signUp();
    const t = await h.createTenant(owner);
    await h.addMember(owner, t.id, admin, "admin");
    await h.addMember(owner, t.id, carol, "member");
    const res = await h.call("PATCH", `/v1/tenants/${t.id}/members/${carol.sub}`, {
      as: admin.identity,
      body: { role: "admin" },
    });
    assert.equal(res.status, 200);
    assert.equal(((await res.json()) as Member).role, "admin");
    assert.deepEqual(invalidationsOf(res), [{ scope: "membership", tenant_id: t.id, sub: carol.sub }]);
    const gw = { kind: "service", service: "edge-gateway" } as const;
    const state = await h.call("GET", `/internal/v1/tenants/${t.id}/members/${carol.sub}`, { as: gw });
    assert.deepEqual(await state.json(), { tenant_id: t.id, sub: carol.sub, role: "admin" });

    const demote = await h.call("PATCH", `/v1/tenants/${t.id}/members/${owner.sub}`, {
      as: admin.identity,
      body: { role: "member" },
    });
    assert.equal(demote.status, 409);
    assert.equal(await code(demote), "LAST_OWNER");
    const remove = await h.call("DELETE", `/v1/tenants/${t.id}/members/${owner.sub}`, { as: owner.identity });
    assert.equal(remove.status, 409);
    assert.equal(await code(remove), "LAST_OWNER");
  });

  it("removes a member: 204, gone from the list and from the gateway's membership lookup", async () => {
    const owner = await h.signUp();
    const dave = await h.signUp();
    const t = await h.createTenant(owner);
    await h.addMember(owner, t.id, dave, "member");
    const res = await h.call("DELETE", `/v1/tenants/${t.id}/members/${dave.sub}`, { as: owner.identity });
    assert.equal(res.status, 204);
    assert.deepEqual(invalidationsOf(res), [{ scope: "membership", tenant_id: t.id, sub: dave.sub }]);
    assert.equal((await h.call("GET", `/v1/tenants/${t.id}`, { as: dave.identity })).status, 404);
    const gw = { kind: "service", service: "edge-gateway" } as const;
    assert.equal((await h.call("GET", `/internal/v1/tenants/${t.id}/members/${dave.sub}`, { as: gw })).status, 404);
    const again = await h.call("DELETE", `/v1/tenants/${t.id}/members/${dave.sub}`, { as: owner.identity });
    assert.equal(again.status, 404);
  });
});
