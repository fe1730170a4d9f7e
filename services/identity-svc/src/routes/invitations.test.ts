import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import type {
  ReceivedInvitation,
  ReceivedInvitationList,
  SentInvitation,
} from "@flowstate/contracts/rest/identity/invitations";
import type { Tenant } from "@flowstate/contracts/rest/identity/tenants";
import { afterAll, beforeAll, describe, it } from "vitest";
import { type Harness, outboxEvents, startHarness, type TestUser } from "../testing/harness.ts";
import { expireInvitations } from "../verbs/expire-invitations.ts";

/**
 * Consent (decisions.md): invitations to join a tenant and to take it over, seen, accepted,
 * declined and expired by the invitee only. The clock is the harness's, moved forward for expiry.
 */
let h: Harness;
let offsetMs = 0;
beforeAll(async () => {
  h = await startHarness({ prefix: "id_invite", clock: () => new Date(Date.now() + offsetMs) });
});
afterAll(() => h.close());

const DAY = 24 * 3600_000;
const code = async (res: Response) => ((await res.json()) as { code: string }).code;
const invite = async (by: TestUser, tenantId: string, email: string, role = "member") => {
  const res = await h.call("POST", `/v1/tenants/${tenantId}/members`, { as: by.identity, body: { email, role } });
  assert.equal(res.status, 201, await res.clone().text());
  return (await res.json()) as SentInvitation;
};
const mine = async (user: TestUser) =>
  ((await (await h.call("GET", "/v1/users/me/invitations", { as: user.identity })).json()) as ReceivedInvitationList)
    .invitations;
const answer = (user: TestUser, id: string, what: "accept" | "decline") =>
  h.call("POST", `/v1/users/me/invitations/${id}/${what}`, { as: user.identity });
const roleIn = async (user: TestUser, tenantId: string) => {
  const res = await h.call("GET", `/v1/tenants/${tenantId}`, { as: user.identity });
  return res.status === 200 ? ((await res.json()) as Tenant).role : res.status;
};

describe("invitations", () => {
  it("shows the invitee their invitation (by e-mail, any case) with the tenant and inviter, and nobody else", async () => {
    const owner = await h.signUp({ name: "Olga Owner" });
    const bob = await h.signUp();
    const eve = await h.signUp();
    const t = await h.createTenant(owner, "Acme");
    const sent = await invite(owner, t.id, bob.email.toUpperCase(), "admin");
    const [seen, ...rest] = await mine(bob);
    assert.equal(rest.length, 0);
    assert.deepEqual(
      { ...seen, created_at: undefined, expires_at: undefined },
      {
        invitation_id: sent.invitation_id,
        kind: "membership",
        tenant_id: t.id,
        tenant_name: "Acme",
        role: "admin",
        status: "pending",
        invited_by: owner.sub,
        invited_by_name: "Olga Owner",
        responded_at: null,
        created_at: undefined,
        expires_at: undefined,
      },
    );
    assert.equal(Date.parse(seen!.expires_at) - Date.parse(seen!.created_at), 7 * DAY);
    assert.deepEqual(await mine(eve), []);
    // Someone else's invitation reads exactly like an unknown one.
    const foreign = await answer(eve, sent.invitation_id, "accept");
    const unknown = await answer(eve, "inv_0000000000aaaaaaaaaa", "accept");
    assert.equal(foreign.status, 404);
    const strip = async (r: Response) => {
      const { request_id: _, ...body } = (await r.json()) as Record<string, unknown>;
      return body;
    };
    assert.deepEqual(await strip(foreign), await strip(unknown));
    assert.equal(await roleIn(eve, t.id), 404);
  });

  it("reaches a person who signs up only after being invited", async () => {
    const owner = await h.signUp();
    const t = await h.createTenant(owner);
    const email = `later-${randomUUID()}@example.test`;
    const sent = await invite(owner, t.id, email);
    const later = await h.signUp({ email });
    assert.deepEqual(
      (await mine(later)).map((i) => i.invitation_id),
      [sent.invitation_id],
    );
    assert.equal((await answer(later, sent.invitation_id, "accept")).status, 200);
    assert.equal(await roleIn(later, t.id), "member");
  });

  it("declining changes nothing; an answered invitation cannot be answered again (409)", async () => {
    const owner = await h.signUp();
    const bob = await h.signUp();
    const t = await h.createTenant(owner);
    const sent = await invite(owner, t.id, bob.email);
    const declined = await answer(bob, sent.invitation_id, "decline");
    assert.equal(declined.status, 200);
    const body = (await declined.json()) as ReceivedInvitation;
    assert.equal(body.status, "declined");
    assert.ok(body.responded_at);
    assert.equal(await roleIn(bob, t.id), 404);
    assert.deepEqual(await mine(bob), []);
    const again = await answer(bob, sent.invitation_id, "accept");
    assert.equal(again.status, 409);
    assert.equal(await code(again), "INVITATION_NOT_PENDING");
    const events = (await outboxEvents(h, "InvitationDeclined.v1")).filter((e) => e.envelope.tenant_id === t.id);
    assert.equal(events.length, 1);
    assert.equal(events[0]!.envelope.subject, bob.sub);
  });

  it("inviting the same address again refreshes the open invitation rather than adding one", async () => {
    const owner = await h.signUp();
    const bob = await h.signUp();
    const t = await h.createTenant(owner);
    const first = await invite(owner, t.id, bob.email, "member");
    const second = await invite(owner, t.id, bob.email, "admin");
    assert.equal(second.invitation_id, first.invitation_id);
    assert.deepEqual(
      (await mine(bob)).map((i) => [i.invitation_id, i.role]),
      [[first.invitation_id, "admin"]],
    );
  });

  it("expires after seven days: no longer listed, refused with 410, and closed by housekeeping with an event", async () => {
    const owner = await h.signUp();
    const bob = await h.signUp();
    const t = await h.createTenant(owner);
    const sent = await invite(owner, t.id, bob.email);
    offsetMs = 7 * DAY + 60_000;
    try {
      assert.deepEqual(await mine(bob), []);
      const late = await answer(bob, sent.invitation_id, "accept");
      assert.equal(late.status, 410);
      assert.equal(await code(late), "INVITATION_EXPIRED");
      assert.ok((await expireInvitations({ ctx: h.ctx({ kind: "system" }) })) >= 1);
      const events = (await outboxEvents(h, "InvitationExpired.v1")).filter((e) => e.envelope.tenant_id === t.id);
      assert.deepEqual(
        events.map((e) => e.envelope.data),
        [{ invitation_id: sent.invitation_id, tenant_id: t.id, kind: "membership" }],
      );
      // A new invitation after expiry is a new one, and can be accepted.
      const fresh = await invite(owner, t.id, bob.email);
      assert.notEqual(fresh.invitation_id, sent.invitation_id);
      assert.equal((await answer(bob, fresh.invitation_id, "accept")).status, 200);
    } finally {
      offsetMs = 0;
    }
  });
});

describe("ownership transfers", () => {
  it("wait for the new owner: listed for them, nothing changes until they accept", async () => {
    const owner = await h.signUp();
    const heir = await h.signUp();
    const t = await h.createTenant(owner);
    await h.addMember(owner, t.id, heir, "member");
    const id = await h.transferOwnership(owner, t.id, heir);
    const [pending] = await mine(heir);
    assert.deepEqual([pending?.invitation_id, pending?.kind, pending?.role], [id, "ownership", "owner"]);
    assert.equal(await roleIn(heir, t.id), "member");
    assert.equal((await answer(heir, id, "accept")).status, 200);
    assert.equal(await roleIn(heir, t.id), "owner");
    assert.equal(await roleIn(owner, t.id), "admin");
    const moved = (await outboxEvents(h, "TenantOwnershipTransferred.v1")).filter((e) => e.envelope.tenant_id === t.id);
    assert.deepEqual(
      moved.map((e) => [e.envelope.data, e.envelope.subject]),
      [[{ tenant_id: t.id, from_sub: owner.sub, to_sub: heir.sub }, heir.sub]],
    );
  });

  it("cannot block anyone's account deletion: a pending or declined transfer leaves the invitee free to leave", async () => {
    const owner = await h.signUp();
    const victim = await h.signUp();
    const other = await h.signUp();
    const t = await h.createTenant(owner);
    await h.addMember(owner, t.id, victim, "member");
    await h.addMember(owner, t.id, other, "member");
    // The probe: an admin adds the victim and makes them owner without asking.
    await h.transferOwnership(owner, t.id, victim);
    const deleted = await h.call("DELETE", "/v1/users/me", { as: victim.identity });
    assert.equal(deleted.status, 200, await deleted.clone().text());
    // Declining works the same way for someone else.
    const id = await h.transferOwnership(owner, t.id, other);
    assert.equal((await answer(other, id, "decline")).status, 200);
    assert.equal(await roleIn(owner, t.id), "owner");
    assert.equal((await h.call("DELETE", "/v1/users/me", { as: other.identity })).status, 200);
  });

  it("a newer transfer cancels the open one (409 for its invitee, an event for the record)", async () => {
    const owner = await h.signUp();
    const first = await h.signUp();
    const second = await h.signUp();
    const t = await h.createTenant(owner);
    await h.addMember(owner, t.id, first, "member");
    await h.addMember(owner, t.id, second, "member");
    const old = await h.transferOwnership(owner, t.id, first);
    const newer = await h.transferOwnership(owner, t.id, second);
    assert.deepEqual(await mine(first), []);
    const stale = await answer(first, old, "accept");
    assert.equal(stale.status, 409);
    assert.equal(await code(stale), "INVITATION_NOT_PENDING");
    const cancelled = (await outboxEvents(h, "InvitationCancelled.v1")).filter((e) => e.envelope.tenant_id === t.id);
    assert.deepEqual(
      cancelled.map((e) => [e.envelope.data.invitation_id, e.envelope.subject]),
      [[old, first.sub]],
    );
    assert.equal((await answer(second, newer, "accept")).status, 200);
    assert.equal(await roleIn(second, t.id), "owner");
  });
});
