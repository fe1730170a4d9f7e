import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import type { VerifiedIdentity } from "@flowstate/contracts/internal/identity";
import { expectRouteContract } from "@flowstate/shared/testing/route-contract";
import { recordSecret } from "@flowstate/shared/testing/secrets";
import { afterAll, beforeAll, describe, it } from "vitest";
import { type NotifyHarness, startNotifySvc } from "./testing/harness.ts";

let h: NotifyHarness;
/** As production: no http, no special-use address allowed. */
let strict: NotifyHarness;
beforeAll(async () => {
  h = await startNotifySvc({ prefix: "notify_app" });
  strict = await startNotifySvc({
    prefix: "notify_strict",
    delivery: { allowHttp: false, allowedAddresses: new Set() },
  });
});
afterAll(async () => {
  await h.close();
  await strict.close();
});

const admin: VerifiedIdentity = { kind: "user", sub: "usr_0123456789ab", sid: "ses_0123456789ab" };
const tenant = () => `tnt_${randomBytes(8).toString("hex")}`;
const endpoints = (t: string) => `/v1/tenants/${t}/notifications/endpoints`;

describe("notify-svc", () => {
  it("serves exactly its registry routes, checked against their schemas", () => {
    expectRouteContract(h.app, "notify-svc");
    expectRouteContract(strict.app, "notify-svc");
  });

  it("refuses at registration a URL that is not https, or resolves to a loopback, private or link-local address", async () => {
    const t = tenant();
    for (const [url, reason] of [
      ["http://93.184.215.14/hook", "https_required"],
      ["https://127.0.0.1/hook", "address_not_allowed"],
      ["https://10.1.2.3/hook", "address_not_allowed"],
      ["https://192.168.0.10:8443/hook", "address_not_allowed"],
      ["https://169.254.169.254/latest/meta-data", "address_not_allowed"],
      ["https://[::1]/hook", "address_not_allowed"],
      ["https://[::ffff:10.0.0.1]/hook", "address_not_allowed"],
      ["https://localhost/hook", "address_not_allowed"],
      ["https://user:pw@93.184.215.14/hook", "credentials_in_url"],
      ["https://host.invalid/hook", "host_not_found"],
    ] as const) {
      const res = await strict.call("POST", endpoints(t), { as: admin, body: { url } });
      const body = JSON.parse(await res.text());
      assert.equal(res.status, 422, url);
      assert.equal(body.code, "WEBHOOK_URL_REFUSED", url);
      assert.equal(body.reason, reason, url);
    }
    const slack = await strict.call("POST", endpoints(t), {
      as: admin,
      body: { kind: "slack", url: "https://93.184.215.14/services/T0/B0/x" },
    });
    assert.equal(slack.status, 422);
    const list = JSON.parse(await (await strict.call("GET", endpoints(t), { as: admin })).text());
    assert.deepEqual(list.items, [], "nothing was registered");
  });

  it("registers a public https webhook with a whsec_ secret shown once; a Slack URL shows its origin only", async () => {
    const t = tenant();
    const res = await strict.call("POST", endpoints(t), {
      as: admin,
      body: { url: "https://93.184.215.14/hooks", types: ["offer.released", "offer.released"] },
    });
    const created = JSON.parse(await res.text());
    assert.equal(res.status, 201);
    recordSecret(created.secret);
    assert.match(created.secret, /^whsec_/);
    assert.deepEqual(created.types, ["offer.released"]);
    const slack = JSON.parse(
      await (
        await h.call("POST", endpoints(t), {
          as: admin,
          body: { kind: "slack", url: "http://127.0.0.1:9/services/T0/B0/xyz" },
        })
      ).text(),
    );
    assert.equal(slack.secret, null);
    assert.equal(slack.url, "http://127.0.0.1:9/…");
    const list = JSON.parse(await (await strict.call("GET", endpoints(t), { as: admin })).text());
    assert.equal(list.items.length, 1);
    assert.equal("secret" in list.items[0], false);
  });

  it("refuses a tenant's 21st endpoint", async () => {
    const t = tenant();
    for (let i = 0; i < 20; i++) {
      const res = await h.call("POST", endpoints(t), { as: admin, body: { url: `http://127.0.0.1:9/h${i}` } });
      assert.equal(res.status, 201);
      recordSecret(JSON.parse(await res.text()).secret);
    }
    const res = await h.call("POST", endpoints(t), { as: admin, body: { url: "http://127.0.0.1:9/h20" } });
    assert.equal(res.status, 422);
    assert.equal(JSON.parse(await res.text()).code, "ENDPOINT_LIMIT_REACHED");
  });

  it("treats another tenant's endpoint and delivery as missing", async () => {
    const [a, b] = [tenant(), tenant()];
    const created = JSON.parse(
      await (await h.call("POST", endpoints(a), { as: admin, body: { url: "http://127.0.0.1:9/h" } })).text(),
    );
    recordSecret(created.secret);
    for (const [method, suffix] of [
      ["DELETE", ""],
      ["POST", "/enable"],
      ["POST", "/rotate-secret"],
      ["GET", "/deliveries"],
      ["POST", "/deliveries/dlv_0123456789abcdef/replay"],
    ] as const) {
      const res = await h.call(method, `${endpoints(b)}/${created.id}${suffix}`, { as: admin });
      assert.equal(res.status, 404, `${method} ${suffix}`);
    }
    const deleted = await h.call("DELETE", `${endpoints(a)}/${created.id}`, { as: admin });
    assert.equal(deleted.status, 204);
  });

  it("lets only admins manage endpoints (a member is refused)", async () => {
    const res = await h.call("GET", endpoints(tenant()), { as: admin, role: "member" });
    assert.equal(res.status, 403);
  });
});
