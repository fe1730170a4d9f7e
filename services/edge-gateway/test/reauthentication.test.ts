import assert from "node:assert/strict";
import { afterAll, beforeAll, describe, it } from "vitest";
import { type E2E, startE2E } from "./e2e-stack.ts";

/**
 * Recent authentication for DELETE /v1/users/me, end to end through the gateway: the password
 * travels in the body of a DELETE (signed into the assertion like any body). identity-svc's clock
 * runs 16 minutes ahead after sign-in, so the gateway still accepts the token while the service
 * finds its sign-in too old.
 */
describe("account deletion through the gateway", () => {
  let e2e: E2E;
  let offsetMs = 0;
  beforeAll(async () => {
    e2e = await startE2E("gw_reauth", {}, undefined, {
      identity: { clock: () => new Date(Date.now() + offsetMs) },
    });
  });
  afterAll(() => e2e.close());

  it("asks for re-authentication once the sign-in is older than 15 minutes, and takes the password", async () => {
    const me = await e2e.signUp();
    offsetMs = 16 * 60_000;
    try {
      const stale = await e2e.call("DELETE", "/v1/users/me", { token: me.token });
      assert.equal(stale.status, 401);
      assert.equal(stale.json.code, "REAUTHENTICATION_REQUIRED");
      assert.equal(stale.json.max_age_seconds, 900);
      const deleted = await e2e.call("DELETE", "/v1/users/me", { token: me.token, body: { password: me.password } });
      assert.equal(deleted.status, 200, deleted.text);
      assert.equal(deleted.json.deleted, true);
    } finally {
      offsetMs = 0;
    }
    assert.equal((await e2e.call("GET", "/v1/users/me", { token: me.token })).status, 401);
  });
});
