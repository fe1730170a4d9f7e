import assert from "node:assert/strict";
import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, beforeAll, describe, it } from "vitest";
import { type Harness, startHarness } from "../../testing/harness.ts";
import { signOutInFlight } from "../../testing/sign-out-in-flight.ts";
import { disableAccount } from "../disable-account.ts";

/**
 * The service's own re-check of revocation inside every write's transaction: a request the
 * gateway signed while the session or key was live must not write once it is revoked, however
 * the request got here (in flight during the revocation, or replayed from a capture).
 */
let h: Harness;
beforeAll(async () => {
  h = await startHarness({ prefix: "id_live" });
});
afterAll(() => h.close());

const codeOf = async (res: Response) => ((await res.json()) as { code: string }).code;

describe("a write signed for a credential that has since been revoked", () => {
  it("is refused once the session is signed out, though reads answered before", async () => {
    const u = await h.signUp();
    assert.equal((await h.call("PATCH", "/v1/users/me", { as: u.identity, body: { name: "Before" } })).status, 200);
    assert.equal((await h.call("POST", "/v1/auth/signout", { as: u.identity })).status, 204);
    const res = await h.call("PATCH", "/v1/users/me", { as: u.identity, body: { name: "After" } });
    assert.equal(res.status, 401);
    assert.equal(await codeOf(res), "SESSION_REVOKED");
    const fresh = await h.call("POST", "/v1/auth/signin", { body: { email: u.email, password: u.password } });
    assert.equal(fresh.status, 200);
  });

  it("is refused once the account is disabled, on every kind of write", async () => {
    const u = await h.signUp();
    const tenant = await h.createTenant(u);
    await disableAccount({ ctx: h.ctx({ kind: "system" }), sub: u.sub });
    for (const [method, path, body] of [
      ["PATCH", "/v1/users/me", { name: "x" }],
      ["POST", "/v1/tenants", { name: "x" }],
      ["PATCH", `/v1/tenants/${tenant.id}`, { name: "x" }],
      ["PUT", "/v1/users/me/notification-preferences", { product_updates: true }],
    ] as const) {
      const res = await h.call(method, path, { as: u.identity, body });
      assert.equal(res.status, 401, `${method} ${path}`);
      assert.equal(await codeOf(res), "SESSION_REVOKED", `${method} ${path}`);
    }
  });

  it("is refused once the API key is revoked (a live key reaches the verb's own rules)", async () => {
    const owner = await h.signUp();
    const tenant = await h.createTenant(owner);
    const key = await h.apiKey(owner, tenant.id, "write");
    const live = await h.call("PATCH", `/v1/tenants/${tenant.id}`, { as: key, body: { name: "x" } });
    assert.equal(live.status, 403);
    assert.equal(await codeOf(live), "API_KEY_NOT_ALLOWED");
    const revoked = await h.call("DELETE", `/v1/tenants/${tenant.id}/api-keys/${key.key_id}`, { as: owner.identity });
    assert.equal(revoked.status, 204);
    const res = await h.call("PATCH", `/v1/tenants/${tenant.id}`, { as: key, body: { name: "x" } });
    assert.equal(res.status, 401);
    assert.equal(await codeOf(res), "INVALID_API_KEY");
  });

  it("waits for a revocation that is being committed, then is refused (the two serialise)", async () => {
    const u = await h.signUp();
    // A sign-out elsewhere that has revoked the session row but not committed yet.
    const signOut = await signOutInFlight(h, u.sid);
    let settled = false;
    const write = h.call("PATCH", "/v1/users/me", { as: u.identity, body: { name: "Racing" } }).then((r) => {
      settled = true;
      return r;
    });
    await sleep(300);
    assert.equal(settled, false, "the write went ahead of an uncommitted revocation");
    await signOut.commit();
    const res = await write;
    assert.equal(res.status, 401);
    assert.equal(await codeOf(res), "SESSION_REVOKED");
  });
});
