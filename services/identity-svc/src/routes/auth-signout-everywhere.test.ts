import assert from "node:assert/strict";
import type { TokenResponse } from "@flowstate/contracts/rest/identity/auth";
import { recordSecret } from "@flowstate/shared/testing/secrets";
import { decodeJwt } from "jose";
import { afterAll, beforeAll, describe, it } from "vitest";
import { oauthDriver } from "../oauth/testing/oauth-driver.ts";
import { type Harness, invalidationsOf, outboxEvents, startHarness, type TestUser } from "../testing/harness.ts";

/**
 * Issue 20, "MCP answers and set-up": REST sign-out ends this session only and leaves the person's
 * MCP grants working. Both exist: `POST /v1/auth/signout` (this session) and
 * `POST /v1/auth/signout-everywhere` (every session of the account, OAuth grants included).
 */
let h: Harness;
let oauth: ReturnType<typeof oauthDriver>;
const REDIRECT = "http://127.0.0.1/callback";
beforeAll(async () => {
  h = await startHarness({ prefix: "id_signout_all" });
  oauth = oauthDriver(h);
});
afterAll(() => h.close());

const live = async (sid: string) => {
  const res = await h.call("GET", `/internal/v1/sessions/${sid}`, { as: { kind: "service", service: "edge-gateway" } });
  return ((await res.json()) as { active: boolean }).active;
};
/** A second REST session and an MCP grant of `u`, beside the one signUp opened. */
async function threeSessions(u: TestUser) {
  const res = await h.call("POST", "/v1/auth/signin", { body: { email: u.email, password: u.password } });
  const second = (await res.json()) as TokenResponse & { device_token: string };
  recordSecret(second.access_token);
  recordSecret(second.refresh_token);
  recordSecret(second.device_token);
  const clientId = await oauth.register([REDIRECT]);
  const grant = await oauth.tokens(u, clientId, REDIRECT, { scope: "account" });
  return {
    restSid: decodeJwt(second.access_token).sid as string,
    restRefresh: second.refresh_token,
    mcpSid: decodeJwt(grant.access_token).sid as string,
    mcpRefresh: grant.refresh_token,
    clientId,
  };
}

describe("sign out here, sign out everywhere", () => {
  it("signs out here: only this session ends, other sessions and MCP grants keep working", async () => {
    const u = await h.signUp();
    const other = await threeSessions(u);
    const res = await h.call("POST", "/v1/auth/signout", { as: u.identity });
    assert.equal(res.status, 204);
    assert.equal(await live(u.sid), false);
    assert.equal(await live(other.restSid), true);
    assert.equal(await live(other.mcpSid), true);
  });

  it("signs out everywhere: every session and every MCP grant ends, the gateways are told", async () => {
    const u = await h.signUp();
    const other = await threeSessions(u);
    const res = await h.call("POST", "/v1/auth/signout-everywhere", { as: u.identity });
    assert.equal(res.status, 204);
    for (const sid of [u.sid, other.restSid, other.mcpSid]) assert.equal(await live(sid), false, sid);

    // The answer's header drops them at this gateway instance, the events at every other.
    const named = invalidationsOf(res) as { scope: string; sid?: string; sub: string }[];
    for (const sid of [u.sid, other.restSid, other.mcpSid])
      assert.ok(
        named.some((i) => i.scope === "session" && i.sid === sid && i.sub === u.sub),
        sid,
      );
    const revoked = (await outboxEvents(h, "AccessRevoked.v1")).filter((e) => e.envelope.subject === u.sub);
    for (const sid of [u.sid, other.restSid, other.mcpSid])
      assert.ok(
        revoked.some((e) => e.envelope.data.sid === sid),
        `AccessRevoked for ${sid}`,
      );

    const rest = await h.call("POST", "/v1/auth/refresh", { body: { refresh_token: other.restRefresh } });
    assert.equal(rest.status, 401);
    const mcp = await oauth.token({
      grant_type: "refresh_token",
      refresh_token: other.mcpRefresh,
      client_id: other.clientId,
    });
    assert.equal(((await mcp.json()) as { error: string }).error, "invalid_grant");
    const again = await h.call("POST", "/v1/auth/signin", { body: { email: u.email, password: u.password } });
    assert.equal(again.status, 200);
    const fresh = (await again.json()) as TokenResponse & { device_token: string };
    recordSecret(fresh.access_token);
    recordSecret(fresh.refresh_token);
    recordSecret(fresh.device_token);
    assert.equal(await live(decodeJwt(fresh.access_token).sid as string), true, "a new sign-in right after works");
  });

  it("answers a second call with the ended session as any ended session: 401", async () => {
    const u = await h.signUp();
    assert.equal((await h.call("POST", "/v1/auth/signout-everywhere", { as: u.identity })).status, 204);
    const again = await h.call("POST", "/v1/auth/signout-everywhere", { as: u.identity });
    assert.equal(again.status, 401);
    assert.equal(((await again.json()) as { code: string }).code, "SESSION_REVOKED");
  });
});
