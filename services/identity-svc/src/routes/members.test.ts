import assert from "node:assert/strict";
import type { SentInvitation } from "@flowstate/contracts/rest/identity/invitations";
import type { Member, MemberList } from "@flowstate/contracts/rest/identity/members";
import { afterAll, beforeAll, describe, it } from "vitest";
import { type Harness, invalidationsOf, outboxEvents, startHarness } from "../testing/harness.ts";

let h: Harness;
beforeAll(async () => {
  h = await startHarness({ prefix: "id_members" });
});
afterAll(() => h.close());

const code = async (res: Response) => ((await res.json()) as { code: string }).code;

describe("memberships", () => {
  it("invites an e-mail (any case); the person is a member only once they accept, and each step is announced", async () => {
    const owner = await h.signUp();
    const alice = await h.signUp({ name: "Alice" });
    const t = await h.createTenant(owner);
    const res = await h.call("POST", `/v1/tenants/${t.id}/members`, {
      as: owner.identity,
      body: { email: alice.email.toUpperCase(), role: "admin" },
    });
    assert.equal(res.status, 201);
    const sent = (await res.json()) as SentInvitation;
    assert.deepEqual(
      { kind: sent.kind, role: sent.role, status: sent.status, email: sent.email, invitee: sent.invitee_sub },
      { kind: "membership", role: "admin", status: "pending", email: alice.email.toUpperCase(), invitee: null },
    );
    const members = async () =>
      ((await (await h.call("GET", `/v1/tenants/${t.id}/members`, { as: owner.identity })).json()) as MemberList)
        .members;
    assert.deepEqual(
      (await members()).map((m) => m.sub),
      [owner.sub],
      "nobody is a member before accepting",
    );
    const accepted = await h.call("POST", `/v1/users/me/invitations/${sent.invitation_id}/accept`, {
      as: alice.identity,
    });
    assert.equal(accepted.status, 200);
    assert.deepEqual(
      (await members()).map((m) => [m.sub, m.role]),
      [
        [owner.sub, "owner"],
        [alice.sub, "admin"],
      ],
    );
    const added = (await outboxEvents(h, "MembershipAdded.v1")).filter((e) => e.envelope.tenant_id === t.id);
    assert.deepEqual(
      added.map((e) => e.envelope.data),
      [{ tenant_id: t.id, sub: alice.sub, role: "admin" }],
    );
    for (const key of ["InvitationCreated.v1", "InvitationAccepted.v1"]) {
      const events = (await outboxEvents(h, key)).filter((e) => e.envelope.tenant_id === t.id);
      assert.equal(events.length, 1, key);
      assert.equal(events[0]!.envelope.data.invitation_id, sent.invitation_id, key);
      assert.doesNotMatch(JSON.stringify(events[0]!.envelope), /@/, `${key} carries no e-mail address`);
    }
  });

  it("answers an unknown e-mail exactly as a known one; refuses a member (409 ALREADY_MEMBER) and the owner role", async () => {
    const owner = await h.signUp();
    const bob = await h.signUp();
    const carol = await h.signUp();
    const t = await h.createTenant(owner);
    const invite = (email: string) =>
      h.call("POST", `/v1/tenants/${t.id}/members`, { as: owner.identity, body: { email, role: "member" } });
    const shape = async (res: Response) => {
      const body = (await res.json()) as SentInvitation;
      const { invitation_id, email, created_at, expires_at, ...rest } = body;
      assert.match(invitation_id, /^inv_/);
      assert.ok(email && Date.parse(created_at) < Date.parse(expires_at));
      return { status: res.status, keys: Object.keys(body).sort(), rest };
    };
    const known = await shape(await invite(carol.email));
    const unknown = await shape(await invite(`nobody-${Date.now()}@example.test`));
    assert.deepEqual(unknown, known);
    await h.addMember(owner, t.id, bob, "member");
    const again = await invite(bob.email);
    assert.equal(again.status, 409);
    assert.equal(await code(again), "ALREADY_MEMBER");
    const asOwner = await h.call("POST", `/v1/tenants/${t.id}/members`, {
      as: owner.identity,
      body: { email: carol.email, role: "owner" },
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
