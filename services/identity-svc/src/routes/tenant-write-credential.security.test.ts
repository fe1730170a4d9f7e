import assert from "node:assert/strict";
import { setTimeout as sleep } from "node:timers/promises";
import type { TenantContext, VerifiedIdentity } from "@flowstate/contracts/internal/identity";
import { sha256Base64url } from "@flowstate/shared/auth/identity-assertion";
import { afterAll, beforeAll, describe, it } from "vitest";
import { CHECKED_IN_TRANSACTION } from "../app.ts";
import { assertionHeaders } from "../testing/assertion.ts";
import { type Harness, outboxEvents, startHarness, type TestUser } from "../testing/harness.ts";
import { signOutInFlight } from "../testing/sign-out-in-flight.ts";
import { disableAccount } from "../verbs/disable-account.ts";

/**
 * The write routes that skip the early credential read (CHECKED_IN_TRANSACTION, issue 26): their
 * verb re-checks the credential in the first statement of its transaction, and the early read is
 * made only when the route refuses. Each must still answer a dead credential 401 first on every
 * path (a valid change, a bad body, another tenant, a role too low, a caller no longer a member, a
 * revoked API key), and a live one exactly as before.
 */
let h: Harness;
beforeAll(async () => {
  h = await startHarness({ prefix: "id_tx_credential" });
});
afterAll(() => h.close());

interface RouteCase {
  method: string;
  path: (tenantId: string) => string;
  valid: unknown;
  invalid: unknown;
}

const cases: Record<string, RouteCase> = {
  "tenants.rename": {
    method: "PATCH",
    path: (t) => `/v1/tenants/${t}`,
    valid: { name: "Changed" },
    invalid: { name: "" },
  },
  "features.update": {
    method: "PUT",
    path: (t) => `/v1/tenants/${t}/features`,
    valid: { marketplace_offers: true },
    invalid: {},
  },
};

/** A request signed as a gateway would sign it, with the tenant context given (or none). */
const signed = (c: RouteCase, path: string, as: VerifiedIdentity, tenant: TenantContext | undefined, body: unknown) => {
  const text = JSON.stringify(body);
  return h.call(c.method, path, {
    headers: {
      ...assertionHeaders(h.secret, { method: c.method, target: path, bodySha256: sha256Base64url(text) }, as, tenant),
      "content-type": "application/json",
    },
    raw: text,
  });
};
const answer = async (res: Response) => [res.status, ((await res.json().catch(() => ({}))) as { code?: string }).code];
const OTHER = { tenant_id: "tnt_0123456789abcdefghij", role: "owner" } as const;

/** An owner's tenant with an admin in it. */
async function world(): Promise<{ owner: TestUser; admin: TestUser; tenantId: string }> {
  const owner = await h.signUp();
  const admin = await h.signUp();
  const tenantId = (await h.createTenant(owner)).id;
  await h.addMember(owner, tenantId, admin, "admin");
  return { owner, admin, tenantId };
}

describe("tenant writes whose credential is checked in their transaction", () => {
  it("cover exactly the routes listed in the app", () => {
    assert.deepEqual([...CHECKED_IN_TRANSACTION].sort(), Object.keys(cases).sort());
  });

  for (const [id, c] of Object.entries(cases)) {
    it(`${id}: a live admin gets today's answers (200, 400, 404 for another tenant, 403 as a member)`, async () => {
      const { admin, tenantId } = await world();
      const path = c.path(tenantId);
      const asAdmin = { tenant_id: tenantId, role: "admin" } as const;
      assert.equal((await signed(c, path, admin.identity, asAdmin, c.valid)).status, 200);
      assert.deepEqual(await answer(await signed(c, path, admin.identity, asAdmin, c.invalid)), [
        400,
        "VALIDATION_FAILED",
      ]);
      assert.deepEqual(await answer(await signed(c, path, admin.identity, OTHER, c.valid)), [404, "NOT_FOUND"]);
      const asMember = { tenant_id: tenantId, role: "member" } as const;
      assert.deepEqual(await answer(await signed(c, path, admin.identity, asMember, c.valid)), [
        403,
        "INSUFFICIENT_ROLE",
      ]);
    });

    it(`${id}: a signed-out session gets 401 SESSION_REVOKED on every path, and nothing is written`, async () => {
      const { admin, tenantId } = await world();
      assert.equal((await h.call("POST", "/v1/auth/signout", { as: admin.identity })).status, 204);
      const events = (await outboxEvents(h)).length;
      const path = c.path(tenantId);
      const asAdmin = { tenant_id: tenantId, role: "admin" } as const;
      const asMember = { tenant_id: tenantId, role: "member" } as const;
      for (const [what, tenant, body] of [
        ["a valid change", asAdmin, c.valid],
        ["an invalid body", asAdmin, c.invalid],
        ["another tenant", OTHER, c.valid],
        ["no tenant", undefined, c.valid],
        ["a role too low", asMember, c.valid],
      ] as const) {
        assert.deepEqual(
          await answer(await signed(c, path, admin.identity, tenant, body)),
          [401, "SESSION_REVOKED"],
          what,
        );
      }
      assert.equal((await outboxEvents(h)).length, events, "no event");
    });

    it(`${id}: a disabled account, or a session of someone no longer a member, gets 401`, async () => {
      const { owner, admin, tenantId } = await world();
      const path = c.path(tenantId);
      const asAdmin = { tenant_id: tenantId, role: "admin" } as const;
      // Removed from the tenant and signed out: the combined lock finds no membership row, and the
      // separate checks still put the credential first.
      assert.equal(
        (await h.call("DELETE", `/v1/tenants/${tenantId}/members/${admin.sub}`, { as: owner.identity })).status,
        204,
      );
      assert.equal((await h.call("POST", "/v1/auth/signout", { as: admin.identity })).status, 204);
      assert.deepEqual(await answer(await signed(c, path, admin.identity, asAdmin, c.valid)), [401, "SESSION_REVOKED"]);
      await disableAccount({ ctx: h.ctx({ kind: "system" }), sub: owner.sub });
      const asOwner = { tenant_id: tenantId, role: "owner" } as const;
      assert.deepEqual(await answer(await signed(c, path, owner.identity, asOwner, c.valid)), [401, "SESSION_REVOKED"]);
      assert.deepEqual(await answer(await signed(c, path, owner.identity, asOwner, c.invalid)), [
        401,
        "SESSION_REVOKED",
      ]);
    });

    it(`${id}: an API key gets 403 API_KEY_NOT_ALLOWED while live, 401 INVALID_API_KEY once revoked`, async () => {
      const { owner, tenantId } = await world();
      const key = await h.apiKey(owner, tenantId, "write");
      const path = c.path(tenantId);
      const keyTenant = { tenant_id: tenantId, role: "admin" } as const;
      assert.deepEqual(await answer(await signed(c, path, key, keyTenant, c.valid)), [403, "API_KEY_NOT_ALLOWED"]);
      const revoked = await h.call("DELETE", `/v1/tenants/${tenantId}/api-keys/${key.key_id}`, { as: owner.identity });
      assert.equal(revoked.status, 204);
      assert.deepEqual(await answer(await signed(c, path, key, keyTenant, c.valid)), [401, "INVALID_API_KEY"]);
      assert.deepEqual(await answer(await signed(c, path, key, keyTenant, c.invalid)), [401, "INVALID_API_KEY"]);
    });

    it(`${id}: waits for a sign-out that is being committed, then is refused (the two serialise)`, async () => {
      const { admin, tenantId } = await world();
      const signOut = await signOutInFlight(h, admin.sid);
      let settled = false;
      const write = signed(c, c.path(tenantId), admin.identity, { tenant_id: tenantId, role: "admin" }, c.valid).then(
        (r) => {
          settled = true;
          return r;
        },
      );
      await sleep(300);
      assert.equal(settled, false, "the write went ahead of an uncommitted sign-out");
      await signOut.commit();
      assert.deepEqual(await answer(await write), [401, "SESSION_REVOKED"]);
    });
  }

  it("two flag changes at once: both answer the flag on, one event, one row", async () => {
    const { owner, admin, tenantId } = await world();
    const path = `/v1/tenants/${tenantId}/features`;
    const [a, b] = await Promise.all([
      h.call("PUT", path, { as: owner.identity, body: { marketplace_offers: true } }),
      h.call("PUT", path, { as: admin.identity, body: { marketplace_offers: true } }),
    ]);
    assert.deepEqual([a.status, b.status], [200, 200]);
    assert.deepEqual([await a.json(), await b.json()], [{ marketplace_offers: true }, { marketplace_offers: true }]);
    const events = (await outboxEvents(h, "FeatureFlagChanged.v1")).filter((e) => e.envelope.tenant_id === tenantId);
    assert.equal(events.length, 1);
  });
});
