import assert from "node:assert/strict";
import { afterAll, beforeAll, describe, it } from "vitest";
import { oauthDriver } from "../oauth/testing/oauth-driver.ts";
import { type Harness, startHarness } from "../testing/harness.ts";

let h: Harness;
beforeAll(async () => {
  h = await startHarness({ prefix: "id_erasure" });
});
afterAll(() => h.close());

const rows = async (sql: string, params: unknown[] = []) =>
  await h.db.orm.em.fork().execute<Record<string, unknown>[]>(sql.replaceAll("$s", `"${h.db.schema}"`), params);

/** Every row of every table of identity's schema whose text holds `needle` (case-insensitive), as `table: row`. */
async function rowsHolding(needle: string): Promise<string[]> {
  const tables = await rows(
    "SELECT table_name FROM information_schema.tables WHERE table_schema = ? AND table_type = 'BASE TABLE'",
    [h.db.schema],
  );
  const found: string[] = [];
  for (const { table_name } of tables) {
    for (const row of await rows(`SELECT t::text AS row FROM $s."${table_name}" t WHERE t::text ILIKE ?`, [
      `%${needle}%`,
    ]))
      found.push(`${table_name}: ${row.row}`);
  }
  return found;
}

describe("what an account deletion leaves behind in identity-svc", () => {
  it("erases the address from every invitation, cancels the open ones it sent or was sent, and deletes its OAuth consents", async () => {
    const u = await h.signUp();
    const other = await h.signUp();
    const third = await h.signUp();
    const theirs = await h.createTenant(other);
    await h.addMember(other, theirs.id, u, "admin"); // an accepted invitation to u's address
    const second = await h.createTenant(other);
    const toU = await h.call("POST", `/v1/tenants/${second.id}/members`, {
      as: other.identity,
      body: { email: u.email, role: "member" },
    });
    assert.equal(toU.status, 201); // an open invitation to u's address
    const byU = await h.call("POST", `/v1/tenants/${theirs.id}/members`, {
      as: u.identity,
      body: { email: third.email, role: "member" },
    });
    assert.equal(byU.status, 201); // an open invitation u sent
    const sent = ((await byU.json()) as { invitation_id: string }).invitation_id;
    const oauth = oauthDriver(h);
    const redirect = "http://127.0.0.1/callback";
    await oauth.tokens(u, await oauth.register([redirect]), redirect);
    assert.equal((await rows("SELECT 1 FROM $s.oauth_grant WHERE sub = ?", [u.sub])).length, 1);
    assert.ok((await rowsHolding(u.email)).length >= 3, "the address is in app_user and two invitations");

    assert.equal((await h.call("DELETE", "/v1/users/me", { as: u.identity })).status, 200);

    assert.deepEqual(await rowsHolding(u.email), [], "the address is nowhere in identity's schema");
    assert.deepEqual(
      (
        await rows("SELECT tenant_id, status, email FROM $s.invitation WHERE tenant_id IN (?, ?) ORDER BY created_at", [
          theirs.id,
          second.id,
        ])
      ).map((r) => [r.tenant_id, r.status, r.email]),
      [
        [theirs.id, "accepted", null],
        [second.id, "cancelled", null],
        [theirs.id, "cancelled", third.email],
      ],
    );
    const accept = await h.call("POST", `/v1/users/me/invitations/${sent}/accept`, { as: third.identity });
    assert.equal(accept.status, 409, "an invitation of a deleted account cannot be accepted");
    assert.equal(((await accept.json()) as { code: string }).code, "INVITATION_NOT_PENDING");
    for (const name of ["oauth_grant", "oauth_code", "oauth_interaction", "sign_in_device"]) {
      assert.deepEqual(await rows(`SELECT * FROM $s.${name} WHERE sub = ?`, [u.sub]), [], name);
    }
    const cancelled = await rows(
      "SELECT count(*)::int AS n FROM $s.outbox_event WHERE event_key = 'InvitationCancelled.v1' AND envelope->>'tenant_id' IN (?, ?)",
      [theirs.id, second.id],
    );
    assert.equal(cancelled[0]!.n, 2, "each cancellation is announced");
  });
});
