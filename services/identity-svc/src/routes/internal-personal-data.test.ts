import assert from "node:assert/strict";
import { newId } from "@flowstate/shared/ids/new-id";
import { afterAll, beforeAll, describe, it } from "vitest";
import { type Harness, startHarness, type TestUser } from "../testing/harness.ts";

/** GET /internal/v1/users/{sub}/personal-data/{category}: identity-svc's part of an export (ADR 0009). */
let h: Harness;
let alice: TestUser;
let bob: TestUser;
let tenantId: string;
beforeAll(async () => {
  h = await startHarness({ prefix: "id_pdata" });
  [alice, bob] = await Promise.all([h.signUp({ name: "Alice" }), h.signUp({ name: "Bob" })]);
  tenantId = (await h.createTenant(bob, "Bob's")).id;
  await h.addMember(bob, tenantId, alice, "admin");
});
afterAll(() => h.close());

const privacy = { kind: "service", service: "privacy-svc" } as const;
const path = (sub: string, category: string) => `/internal/v1/users/${sub}/personal-data/${category}`;
async function lines(res: Response): Promise<unknown[]> {
  assert.equal(res.status, 200, await res.clone().text());
  assert.equal(res.headers.get("content-type"), "application/x-ndjson");
  return (await res.text())
    .split("\n")
    .filter(Boolean)
    .map((l) => JSON.parse(l));
}

describe("identity-svc's part of a personal-data export", () => {
  it("answers privacy-svc with the profile, the user's own memberships and the preferences, each closed by an end line", async () => {
    const profile = await lines(await h.call("GET", path(alice.sub, "profile"), { as: privacy }));
    assert.equal(profile.length, 2);
    assert.deepEqual((profile[0] as { record: Record<string, unknown> }).record.email, alice.email);
    assert.deepEqual(profile[1], { end: { count: 1 } });
    const memberships = await lines(await h.call("GET", path(alice.sub, "memberships"), { as: privacy }));
    assert.deepEqual(memberships.at(-1), { end: { count: 1 } });
    const [m] = memberships as { record: Record<string, string> }[];
    assert.deepEqual(
      { ...m?.record, since: undefined },
      { tenant_id: tenantId, tenant_name: "Bob's", tenant_status: "active", role: "admin", since: undefined },
    );
    assert.ok(!JSON.stringify(memberships).includes(bob.sub), "another member never appears");
    const prefs = await lines(await h.call("GET", path(alice.sub, "notification_preferences"), { as: privacy }));
    assert.deepEqual(prefs, [
      {
        record: { export_ready: true, security_alerts: true, offer_change_results: true, product_updates: false },
      },
      { end: { count: 1 } },
    ]);
  });

  it("streams thousands of memberships a page at a time, each once, in order", async () => {
    const many = await h.signUp({ name: "Many" });
    const em = h.db.orm.em.fork();
    const ids = Array.from({ length: 1_234 }, () => newId("tnt"));
    await em.execute(
      `INSERT INTO "${h.db.schema}".tenant (id, name, status, created_at)
       SELECT id, 'T ' || id, 'active', now() FROM jsonb_array_elements_text(?::jsonb) AS id`,
      [JSON.stringify(ids)],
    );
    await em.execute(
      `INSERT INTO "${h.db.schema}".membership (tenant_id, sub, role, created_at)
       SELECT id, ?, 'member', now() - (ord || ' seconds')::interval
         FROM jsonb_array_elements_text(?::jsonb) WITH ORDINALITY AS t(id, ord)`,
      [many.sub, JSON.stringify(ids)],
    );
    const got = (await lines(await h.call("GET", path(many.sub, "memberships"), { as: privacy }))) as {
      record?: { tenant_id: string; since: string };
    }[];
    const records = got.filter((l) => l.record).map((l) => l.record!);
    assert.equal(records.length, 1_234);
    assert.equal(new Set(records.map((r) => r.tenant_id)).size, 1_234);
    assert.deepEqual(got.at(-1), { end: { count: 1_234 } });
    const since = records.map((r) => Date.parse(r.since));
    assert.deepEqual(
      since,
      [...since].sort((a, b) => a - b),
    );
  });

  it("answers 404 ACCOUNT_GONE for a deleted or unknown account and refuses every caller but privacy-svc", async () => {
    const gone = await h.signUp();
    assert.equal(
      (await h.call("DELETE", "/v1/users/me", { as: gone.identity, body: { password: gone.password } })).status,
      200,
    );
    for (const sub of [gone.sub, newId("usr")]) {
      const res = await h.call("GET", path(sub, "profile"), { as: privacy });
      assert.deepEqual([res.status, (await res.json()).code], [404, "ACCOUNT_GONE"]);
    }
    const gateway = await h.call("GET", path(alice.sub, "profile"), {
      as: { kind: "service", service: "edge-gateway" },
    });
    assert.equal(gateway.status, 403);
    assert.equal((await gateway.json()).code, "FORBIDDEN");
    assert.equal((await h.call("GET", path(alice.sub, "profile"), { as: alice.identity })).status, 403);
    assert.equal((await h.call("GET", path(alice.sub, "profile"))).status, 401);
    assert.equal((await h.call("GET", path(alice.sub, "export_jobs"), { as: privacy })).status, 400);
  });
});
