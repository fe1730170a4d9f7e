import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { countStatements } from "@flowstate/shared/db/statement-count";
import { afterAll, beforeAll, describe, it } from "vitest";
import { type Account, type Answer, type E2E, startE2E } from "./e2e-stack.ts";

/**
 * Issue 7, Consent (decisions.md), end to end through the gateway: membership is an invitation the
 * invitee accepts, inviting tells nobody whether an address has an account, and an ownership
 * transfer waits for the new owner, so nobody can block another person's account deletion.
 */
describe("consent through the gateway", () => {
  let e2e: E2E;
  let owner: Account;
  let tenantId: string;
  beforeAll(async () => {
    e2e = await startE2E("gw_consent");
    owner = await e2e.signUp();
    tenantId = (await e2e.call("POST", "/v1/tenants", { token: owner.token, body: { name: "Consent" } })).json.id;
  });
  afterAll(() => e2e.close());

  const invite = (email: string, role = "member") =>
    e2e.call("POST", `/v1/tenants/${tenantId}/members`, { token: owner.token, body: { email, role } });
  const answer = (who: Account, id: string, what: "accept" | "decline") =>
    e2e.call("POST", `/v1/users/me/invitations/${id}/${what}`, { token: who.token });

  it("answers an invitation to an unknown address exactly like one to a registered address", async () => {
    const known = await e2e.signUp();
    const unknownEmail = `nobody-${randomUUID()}@example.test`;
    /** Everything but what differs by construction (ids, times, the address echoed back). */
    const comparable = (a: Answer) => {
      const { invitation_id, email, created_at, expires_at, ...rest } = a.json;
      assert.match(invitation_id, /^inv_[0-9A-Za-z]{10,40}$/);
      assert.equal(typeof email, "string");
      assert.equal(Date.parse(expires_at) - Date.parse(created_at), 7 * 24 * 3600_000);
      const headers = [...a.headers.keys()].filter((h) => !["date", "x-request-id", "content-length"].includes(h));
      return { status: a.status, keys: Object.keys(a.json), rest, headers: headers.sort() };
    };
    assert.deepEqual(comparable(await invite(unknownEmail)), comparable(await invite(known.email)));

    // The same work whatever the address: the verb never looks it up among accounts, so both
    // send identity-svc's database the same statements (counted on the real database, the request
    // made to identity-svc in process so that only its statements count; a timing comparison did
    // this before and failed on a loaded machine). This catches a regression that adds
    // account-dependent work.
    const as = { kind: "user", sub: owner.sub, sid: owner.sid } as const;
    const work = async (email: string) => {
      const { result, shapes } = await countStatements(e2e.identity.deps.orm, () =>
        e2e.identity.call("POST", `/v1/tenants/${tenantId}/members`, { as, body: { email, role: "member" } }),
      );
      assert.equal(result.status, 201);
      return shapes;
    };
    await work(known.email); // both paths warmed (prepared statements, caches) before comparing
    await work(unknownEmail);
    const [k, u] = [await work(known.email), await work(unknownEmail)];
    assert.ok(k.length > 0);
    assert.deepEqual(u, k);
  });

  it("makes nobody a member without their acceptance, and lets them decline", async () => {
    const bob = await e2e.signUp();
    const carol = await e2e.signUp();
    const forBob = (await invite(bob.email, "admin")).json.invitation_id as string;
    const forCarol = (await invite(carol.email)).json.invitation_id as string;
    assert.equal((await e2e.call("GET", `/v1/tenants/${tenantId}`, { token: bob.token })).status, 404);
    const listed = await e2e.call("GET", "/v1/users/me/invitations", { token: bob.token });
    assert.deepEqual(
      listed.json.invitations.map((i: { invitation_id: string; role: string }) => [i.invitation_id, i.role]),
      [[forBob, "admin"]],
    );
    assert.equal((await answer(bob, forBob, "accept")).status, 200);
    assert.equal((await e2e.call("GET", `/v1/tenants/${tenantId}`, { token: bob.token })).json.role, "admin");
    assert.equal((await answer(bob, forCarol, "accept")).status, 404, "someone else's invitation");
    const declined = await answer(carol, forCarol, "decline");
    assert.equal(declined.json.status, "declined");
    assert.equal((await e2e.call("GET", `/v1/tenants/${tenantId}`, { token: carol.token })).status, 404);
  });

  it("cannot make someone an owner to block their account deletion; a transfer they accept works", async () => {
    const victim = await e2e.signUp();
    // Not a member (an invitation is not a membership): no transfer can even be asked.
    await invite(victim.email);
    const refused = await e2e.call("POST", `/v1/tenants/${tenantId}/ownership-transfer`, {
      token: owner.token,
      body: { new_owner_sub: victim.sub },
    });
    assert.equal(refused.status, 422);
    assert.equal(refused.json.code, "NOT_A_MEMBER");
    // A member asked to take over, who never answers, is free to delete the account.
    await e2e.addMember(owner, tenantId, victim, "member");
    const asked = await e2e.call("POST", `/v1/tenants/${tenantId}/ownership-transfer`, {
      token: owner.token,
      body: { new_owner_sub: victim.sub },
    });
    assert.equal(asked.status, 202);
    assert.equal(asked.json.status, "pending");
    assert.equal((await e2e.call("GET", `/v1/tenants/${tenantId}`, { token: owner.token })).json.owner_sub, owner.sub);
    const deleted = await e2e.call("DELETE", "/v1/users/me", { token: victim.token });
    assert.equal(deleted.status, 200, deleted.text);

    // Someone who does accept becomes the owner; the previous owner, an admin.
    const heir = await e2e.signUp();
    await e2e.addMember(owner, tenantId, heir, "member");
    const transfer = await e2e.call("POST", `/v1/tenants/${tenantId}/ownership-transfer`, {
      token: owner.token,
      body: { new_owner_sub: heir.sub },
    });
    assert.equal((await answer(heir, transfer.json.invitation_id, "accept")).status, 200);
    const seen = await e2e.call("GET", `/v1/tenants/${tenantId}`, { token: owner.token });
    assert.deepEqual([seen.json.owner_sub, seen.json.role], [heir.sub, "admin"]);
  });
});
