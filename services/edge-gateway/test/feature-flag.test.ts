import assert from "node:assert/strict";
import { routes } from "@flowstate/contracts/rest/routes";
import { updateFeatures } from "@flowstate/identity-svc/verbs/update-features";
import { waitFor } from "@flowstate/shared/consumer/test-events";
import { afterAll, beforeAll, describe, it } from "vitest";
import { type E2E, startE2E } from "./e2e-stack.ts";

/**
 * A route's `feature` is enforced by the gateway alone. identity-svc's GET /v1/tenants/{id} stands
 * in for a marketplace route here (the same route with `feature` added), so the test needs no other
 * service; connector-svc's tests check the real marketplace routes.
 */
const gated = routes.map((r) => (r.id === "tenants.get" ? { ...r, feature: "marketplace_offers" as const } : r));

describe("feature flags declared on a route", () => {
  let e2e: E2E;
  beforeAll(async () => {
    e2e = await startE2E("gw_features", {}, gated);
  });
  afterAll(() => e2e.close());

  const setup = async () => {
    const owner = await e2e.signUp();
    const tenantId = (await e2e.call("POST", "/v1/tenants", { token: owner.token, body: { name: "Flags" } })).json
      .id as string;
    return { owner, tenantId, path: `/v1/tenants/${tenantId}` };
  };

  it("answers 403 FEATURE_DISABLED while the flag is off, naming it and where to turn it on, without reaching the service", async () => {
    const { owner, path } = await setup();
    const seen = e2e.reached.length;
    const res = await e2e.call("GET", path, { token: owner.token });
    assert.equal(res.status, 403, res.text);
    assert.equal(res.headers.get("content-type"), "application/problem+json");
    assert.equal(res.json.code, "FEATURE_DISABLED");
    assert.equal(res.json.feature, "marketplace_offers");
    assert.match(res.json.detail, /Settings, Features/);
    assert.deepEqual(e2e.reached.slice(seen), []);
  });

  it("keeps the 404 of a foreign or missing tenant ahead of the flag", async () => {
    const { path } = await setup();
    const stranger = await e2e.signUp();
    assert.equal((await e2e.call("GET", path, { token: stranger.token })).status, 404);
  });

  it("applies a flag change made through this gateway to the very next request, both ways", async () => {
    const { owner, path } = await setup();
    assert.equal((await e2e.call("GET", path, { token: owner.token })).status, 403);
    const on = await e2e.call("PUT", `${path}/features`, { token: owner.token, body: { marketplace_offers: true } });
    assert.equal(on.status, 200, on.text);
    assert.equal((await e2e.call("GET", path, { token: owner.token })).status, 200);
    await e2e.call("PUT", `${path}/features`, { token: owner.token, body: { marketplace_offers: false } });
    assert.equal((await e2e.call("GET", path, { token: owner.token })).status, 403);
  });

  // An instance without a lease (this one) is pushed nothing: the TTL bounds what it shows. Leased
  // instances see a change through another one at once (door-lease.test.ts).
  it("applies a change made elsewhere (another instance, mcp-gateway) within a second, unpushed", async () => {
    const { owner, tenantId, path } = await setup();
    await e2e.call("PUT", `${path}/features`, { token: owner.token, body: { marketplace_offers: true } });
    assert.equal((await e2e.call("GET", path, { token: owner.token })).status, 200);
    const ctx = e2e.identity.ctx({ kind: "user", sub: owner.sub, sid: owner.sid });
    await updateFeatures({ ctx, tenantId, input: { marketplace_offers: false } });
    const changed = Date.now();
    await waitFor(async () => (await e2e.call("GET", path, { token: owner.token })).status === 403, 3_000, "403");
    assert.ok(Date.now() - changed < 1_500, `took ${Date.now() - changed} ms`);
  });
});
