import assert from "node:assert/strict";
import type { Profile } from "@flowstate/contracts/rest/identity/users";
import { afterAll, beforeAll, describe, it } from "vitest";
import { type Harness, outboxEvents, startHarness } from "../testing/harness.ts";

let h: Harness;
beforeAll(async () => {
  h = await startHarness({ prefix: "id_me" });
});
afterAll(() => h.close());

describe("the signed-in user's profile and preferences", () => {
  it("shows the profile and changes name and picture, naming only the changed fields in the event", async () => {
    const u = await h.signUp({ name: "Before" });
    const me = (await (await h.call("GET", "/v1/users/me", { as: u.identity })).json()) as Profile;
    assert.deepEqual(
      { ...me, created_at: undefined },
      {
        sub: u.sub,
        name: "Before",
        email: u.email,
        picture_url: null,
        status: "active",
        created_at: undefined,
      },
    );
    const res = await h.call("PATCH", "/v1/users/me", {
      as: u.identity,
      body: { name: "After", picture_url: "https://cdn.example.test/me.png" },
    });
    assert.equal(res.status, 200);
    assert.deepEqual({ name: ((await res.json()) as Profile).name }, { name: "After" });
    const [event] = (await outboxEvents(h, "UserProfileUpdated.v1")).filter((e) => e.envelope.subject === u.sub);
    assert.deepEqual(event?.envelope.data, { sub: u.sub, fields: ["name", "picture_url"] });
  });

  it("refuses a non-https picture, an empty patch and unknown fields", async () => {
    const u = await h.signUp();
    for (const body of [
      { picture_url: "http://x.test/a.png" },
      { picture_url: "javascript:alert(1)" },
      {},
      { email: "x@y.z" },
    ]) {
      const res = await h.call("PATCH", "/v1/users/me", { as: u.identity, body });
      assert.equal(res.status, 400, JSON.stringify(body));
    }
  });

  it("has notification preference defaults, and a PUT changes only the given keys", async () => {
    const u = await h.signUp();
    const path = "/v1/users/me/notification-preferences";
    assert.deepEqual(await (await h.call("GET", path, { as: u.identity })).json(), {
      export_ready: true,
      security_alerts: true,
      offer_change_results: true,
      product_updates: false,
    });
    const put = await h.call("PUT", path, { as: u.identity, body: { product_updates: true, export_ready: false } });
    assert.equal(put.status, 200);
    const expected = { export_ready: false, security_alerts: true, offer_change_results: true, product_updates: true };
    assert.deepEqual(await put.json(), expected);
    assert.deepEqual(await (await h.call("GET", path, { as: u.identity })).json(), expected);
    const bad = await h.call("PUT", path, { as: u.identity, body: { newsletter: true } });
    assert.equal(bad.status, 400);
  });
});
