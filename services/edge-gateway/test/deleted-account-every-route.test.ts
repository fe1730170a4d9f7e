import assert from "node:assert/strict";
import type { RouteSpec } from "@flowstate/contracts/rest/route";
import { routes } from "@flowstate/contracts/rest/routes";
import { afterAll, beforeAll, describe, it } from "vitest";
import { type Account, type E2E, startE2E } from "./e2e-stack.ts";

/**
 * §7 check 1 (and 2, the caches warm): after DELETE /v1/users/me returns, none of the 20 access
 * tokens the account held, each of its own session and each used just before, is accepted on any
 * protected route of the registry (enumerated, not hand-picked), through the gateway with every
 * service behind it.
 */
const SESSIONS = 20;

describe("a deleted account's tokens on every protected route", () => {
  let e2e: E2E;
  let user: Account;
  let sessions: Account[];
  let tenantId: string;
  const protectedRoutes = routes.filter((r) => r.auth !== "public");
  const fill = (route: RouteSpec) =>
    route.path.replace(/\{(\w+)\}/g, (_, name: string) =>
      name === "id" ? tenantId : `${name === "sub" ? "usr" : "x"}_0000000000000000000000`,
    );

  beforeAll(async () => {
    e2e = await startE2E("gw_deleted_routes", {}, undefined, { connector: true, offers: true, privacy: {} });
    user = await e2e.signUp();
    const other = await e2e.signUp();
    tenantId = (await e2e.call("POST", "/v1/tenants", { token: other.token, body: { name: "Theirs" } })).json.id;
    await e2e.addMember(other, tenantId, user, "admin");
    sessions = [user];
    while (sessions.length < SESSIONS) sessions.push(await e2e.signIn(user.email, user.password));
  });
  afterAll(() => e2e?.close());

  it(`accepts 0 of ${SESSIONS} tokens on each of the registry's protected routes once the deletion returned`, async () => {
    assert.ok(protectedRoutes.length >= 40, `${protectedRoutes.length} protected routes`);
    // Warm: every session's token was accepted a moment ago (the gateway's caches hold it).
    for (const s of sessions) {
      const res = await e2e.call("GET", `/v1/tenants/${tenantId}`, { token: s.token });
      assert.equal(res.status, 200, res.text);
    }
    const deleted = await e2e.call("DELETE", "/v1/users/me", { token: user.token, body: { password: user.password } });
    assert.equal(deleted.status, 200, deleted.text);

    const accepted: string[] = [];
    for (const route of protectedRoutes) {
      const answers = await Promise.all(
        sessions.map((s) =>
          e2e.call(route.method, fill(route), {
            token: s.token,
            ...(route.body ? { body: {} } : {}),
          }),
        ),
      );
      answers.forEach((res, i) => {
        if (res.status !== 401) accepted.push(`${route.id} session ${i}: ${res.status} ${res.text.slice(0, 120)}`);
      });
    }
    assert.deepEqual(accepted, [], `answers other than 401 after the deletion (${accepted.length})`);
  });
});
