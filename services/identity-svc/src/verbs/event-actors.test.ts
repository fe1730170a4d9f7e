import assert from "node:assert/strict";
import { isDeepStrictEqual } from "node:util";
import type { EventActor } from "@flowstate/contracts/events/envelope";
import { afterAll, beforeAll, describe, it } from "vitest";
import { type Harness, outboxEvents, startHarness } from "../testing/harness.ts";
import { disableAccount } from "./disable-account.ts";

/**
 * Every identity event names who did it (`actor`) and whom it is about (`subject`) separately:
 * audit-svc stores both, so an admin acting on a member must never be recorded as the member.
 * One flow through the real routes, then a table of what each event must say.
 */
let h: Harness;
beforeAll(async () => {
  h = await startHarness({ prefix: "id_actors" });
});
afterAll(() => h.close());

type Seen = { key: string; actor: EventActor; subject: string | undefined; tenant?: string; request_id?: string };

async function events(): Promise<Seen[]> {
  return (await outboxEvents(h)).map((e) => {
    const env = e.envelope as unknown as {
      actor: EventActor;
      subject?: string;
      tenant_id?: string;
      request_id?: string;
    };
    return {
      key: e.event_key,
      actor: env.actor,
      subject: env.subject,
      ...(env.tenant_id ? { tenant: env.tenant_id } : {}),
      ...(env.request_id ? { request_id: env.request_id } : {}),
    };
  });
}

const ok = async (res: Response | Promise<Response>) => {
  const r = await res;
  assert.ok(r.status < 300, `${r.status} ${await r.clone().text()}`);
  return r;
};

describe("identity events: actor and subject", () => {
  it("name the caller as actor and the person the event is about as subject, for every identity event", async () => {
    const alice = await h.signUp();
    const bob = await h.signUp();
    const carol = await h.signUp();
    await h.call("POST", "/v1/auth/signup", { body: { email: alice.email, password: "whatever-12345", name: "X" } });
    const user = (u: { sub: string }): EventActor => ({ kind: "user", sub: u.sub });
    const t = await h.createTenant(alice);
    const tp = `/v1/tenants/${t.id}`;
    await h.addMember(alice, t.id, bob, "admin");
    await h.addMember(alice, t.id, carol, "member");
    await ok(h.call("PATCH", `${tp}/members/${bob.sub}`, { as: alice.identity, body: { role: "member" } }));
    await ok(h.call("PATCH", `${tp}/members/${bob.sub}`, { as: alice.identity, body: { role: "admin" } }));
    await ok(h.call("POST", `${tp}/api-keys`, { as: bob.identity, body: { name: "ci", scope: "read" } }));
    await ok(h.call("PATCH", tp, { as: alice.identity, body: { name: "Renamed" } }));
    await ok(h.call("PUT", `${tp}/features`, { as: alice.identity, body: { marketplace_offers: true } }));
    await ok(h.call("DELETE", `${tp}/members/${bob.sub}`, { as: alice.identity }));
    await ok(h.call("PATCH", "/v1/users/me", { as: carol.identity, body: { name: "Carol" } }));
    await ok(
      h.call("PUT", "/v1/users/me/notification-preferences", { as: carol.identity, body: { export_ready: false } }),
    );
    const transfer = await ok(
      h.call("POST", `${tp}/ownership-transfer`, { as: alice.identity, body: { new_owner_sub: carol.sub } }),
    );
    const { invitation_id } = (await transfer.json()) as { invitation_id: string };
    await ok(h.call("POST", `/v1/users/me/invitations/${invitation_id}/accept`, { as: carol.identity }));
    // Bob is asked back, and says no.
    const asked = await ok(
      h.call("POST", `${tp}/members`, { as: carol.identity, body: { email: bob.email, role: "member" } }),
    );
    const again = ((await asked.json()) as { invitation_id: string }).invitation_id;
    await ok(h.call("POST", `/v1/users/me/invitations/${again}/decline`, { as: bob.identity }));
    await ok(h.call("DELETE", tp, { as: carol.identity }));
    await ok(h.call("POST", "/v1/auth/signout", { as: carol.identity }));
    // A refresh token spent twice: identity-svc itself revokes the session.
    const r1 = await ok(h.call("POST", "/v1/auth/refresh", { body: { refresh_token: bob.tokens.refresh_token } }));
    assert.ok(r1);
    await h.call("POST", "/v1/auth/refresh", { body: { refresh_token: bob.tokens.refresh_token } });
    await ok(h.call("DELETE", "/v1/users/me", { as: alice.identity }));
    await disableAccount({ ctx: h.ctx({ kind: "system" }), sub: bob.sub });

    const all = await events();
    const mine = new Set([alice.sub, bob.sub, carol.sub]);
    const seen = all.filter((e) => (e.subject && mine.has(e.subject)) || e.tenant === t.id);
    const expect = (key: string, actor: EventActor, subject: string | undefined, n = 1) => {
      const matching = seen.filter((e) => e.key === key && isDeepStrictEqual(e.actor, actor) && e.subject === subject);
      assert.equal(matching.length, n, `${key} by ${JSON.stringify(actor)} about ${subject}`);
    };
    const system: EventActor = { kind: "system", service: "identity-svc" };

    expect("UserSignedUp.v1", user(alice), alice.sub);
    expect("SignUpAttemptedForExistingAccount.v1", { kind: "anonymous" }, alice.sub);
    expect("TenantCreated.v1", user(alice), alice.sub);
    // Joining is the invitee's own act (Consent): they accept, so they are the actor.
    expect("MembershipAdded.v1", user(bob), bob.sub);
    expect("MembershipAdded.v1", user(carol), carol.sub);
    expect("InvitationCreated.v1", user(alice), undefined, 2); // to an e-mail address: about nobody yet
    expect("InvitationCreated.v1", user(alice), carol.sub); // the transfer: about the member asked
    expect("InvitationCreated.v1", user(carol), undefined); // Bob asked back
    expect("InvitationAccepted.v1", user(bob), bob.sub);
    expect("InvitationAccepted.v1", user(carol), carol.sub, 2);
    expect("InvitationDeclined.v1", user(bob), bob.sub);
    expect("MembershipRoleChanged.v1", user(alice), bob.sub, 2);
    expect("ApiKeyCreated.v1", user(bob), bob.sub);
    expect("TenantRenamed.v1", user(alice), undefined);
    expect("FeatureFlagChanged.v1", user(alice), undefined);
    expect("MembershipRemoved.v1", user(alice), bob.sub);
    // Bob's key dies with his membership: the admin removing him is the actor, Bob (its creator) the subject.
    expect("ApiKeyRevoked.v1", user(alice), bob.sub);
    expect("UserProfileUpdated.v1", user(carol), carol.sub);
    expect("NotificationPreferencesChanged.v1", user(carol), carol.sub);
    expect("TenantOwnershipTransferred.v1", user(carol), carol.sub);
    expect("TenantSoftDeleted.v1", user(carol), undefined);
    expect("AccountDeleted.v1", user(alice), alice.sub);
    expect("MembershipRemoved.v1", user(alice), alice.sub);
    expect("AccountDisabled.v1", system, bob.sub);
    // AccessRevoked, by scope: each about the person who lost access (none for a whole tenant).
    expect("AccessRevoked.v1", user(carol), carol.sub, 2); // her accepted transfer (membership changed), sign-out
    expect("AccessRevoked.v1", system, bob.sub, 2); // replayed refresh token, then the disabled account
    expect("AccessRevoked.v1", user(carol), undefined, 2); // soft delete: memberships and keys of the tenant

    // Every identity event type of the catalog appeared, and each carried the id of the request (or verb call) behind it.
    const identityKeys = [
      "UserSignedUp.v1",
      "UserProfileUpdated.v1",
      "AccountDeleted.v1",
      "AccountDisabled.v1",
      "SignUpAttemptedForExistingAccount.v1",
      "AccessRevoked.v1",
      "TenantCreated.v1",
      "TenantRenamed.v1",
      "TenantSoftDeleted.v1",
      "TenantOwnershipTransferred.v1",
      "MembershipAdded.v1",
      "MembershipRoleChanged.v1",
      "MembershipRemoved.v1",
      "FeatureFlagChanged.v1",
      "NotificationPreferencesChanged.v1",
      "ApiKeyCreated.v1",
      "ApiKeyRevoked.v1",
      "InvitationCreated.v1",
      "InvitationAccepted.v1",
      "InvitationDeclined.v1",
    ];
    assert.deepEqual([...new Set(seen.map((e) => e.key))].sort(), identityKeys.sort());
    for (const e of seen) assert.match(e.request_id ?? "", /^[A-Za-z0-9._:-]{8,128}$/, e.key);
  });
});
