import assert from "node:assert/strict";
import { afterAll, beforeAll, describe, it } from "vitest";
import { type Harness, outboxEvents, startHarness } from "../testing/harness.ts";

let h: Harness;
beforeAll(async () => {
  h = await startHarness({ prefix: "id_features" });
});
afterAll(() => h.close());

describe("feature flags", () => {
  it("start with marketplace_offers off, turn on for an admin, and announce only real changes", async () => {
    const owner = await h.signUp();
    const member = await h.signUp();
    const t = await h.createTenant(owner);
    await h.addMember(owner, t.id, member, "member");
    assert.deepEqual(await (await h.call("GET", `/v1/tenants/${t.id}/features`, { as: member.identity })).json(), {
      marketplace_offers: false,
    });
    const put = await h.call("PUT", `/v1/tenants/${t.id}/features`, {
      as: owner.identity,
      body: { marketplace_offers: true },
    });
    assert.equal(put.status, 200);
    assert.deepEqual(await put.json(), { marketplace_offers: true });
    await h.call("PUT", `/v1/tenants/${t.id}/features`, { as: owner.identity, body: { marketplace_offers: true } });
    assert.deepEqual(await (await h.call("GET", `/v1/tenants/${t.id}/features`, { as: member.identity })).json(), {
      marketplace_offers: true,
    });
    const events = (await outboxEvents(h, "FeatureFlagChanged.v1")).filter((e) => e.envelope.tenant_id === t.id);
    assert.deepEqual(
      events.map((e) => e.envelope.data),
      [{ tenant_id: t.id, flag: "marketplace_offers", enabled: true }],
    );
  });

  it("refuses unknown flags, non-boolean values and an empty change with 400", async () => {
    const owner = await h.signUp();
    const t = await h.createTenant(owner);
    for (const body of [{ unknown_flag: true }, { marketplace_offers: "yes" }, {}, []]) {
      const res = await h.call("PUT", `/v1/tenants/${t.id}/features`, { as: owner.identity, body });
      assert.equal(res.status, 400, JSON.stringify(body));
    }
  });
});
