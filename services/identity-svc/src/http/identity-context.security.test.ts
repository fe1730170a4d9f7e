import assert from "node:assert/strict";
import { identityRoutes } from "@flowstate/contracts/rest/routes";
import {
  bodyless,
  IDENTITY_HEADER,
  MAX_HELD_MS,
  MAX_SKEW_MS,
  sha256Base64url,
} from "@flowstate/shared/auth/identity-assertion";
import { signedAs } from "@flowstate/shared/testing/signed-as";
import { afterAll, beforeAll, describe, it } from "vitest";
import { fillPath, type Harness, startHarness, type TestUser } from "../testing/harness.ts";

let h: Harness;
let owner: TestUser;
let tenantId: string;
beforeAll(async () => {
  h = await startHarness({ prefix: "id_gate" });
  owner = await h.signUp();
  tenantId = (await h.createTenant(owner)).id;
});
afterAll(() => h.close());

const INTERNAL = [
  { method: "GET", path: "/internal/v1/sessions/{sid}" },
  { method: "POST", path: "/internal/v1/api-keys/verify" },
  { method: "GET", path: "/internal/v1/tenants/{id}/members/{sub}" },
];

/** Every route that needs the gateway's assertion: the non-public registry routes and the internal API. */
const guarded = () => [
  ...identityRoutes.filter((r) => r.auth !== "public").map((r) => ({ method: r.method, path: r.path })),
  ...INTERNAL,
];
const concrete = (p: string) =>
  fillPath(p, { id: tenantId, sub: owner.sub, key_id: "key_0000000000aaaaaaaaaa" }).replace("{sid}", owner.sid);

async function expect401(res: Response, why: string) {
  assert.equal(res.status, 401, why);
  assert.equal(res.headers.get("content-type"), "application/problem+json", why);
  assert.equal(((await res.json()) as { code: string }).code, "UNAUTHENTICATED", why);
}

describe("the gateway assertion", () => {
  it("is required on every non-public route and every internal route", async () => {
    for (const r of guarded()) {
      const body = r.method === "GET" || r.method === "DELETE" ? undefined : {};
      await expect401(await h.call(r.method, concrete(r.path), { body }), `${r.method} ${r.path} without assertion`);
    }
  });

  it("refuses an assertion signed with another key (a forged identity)", async () => {
    for (const r of guarded()) {
      const path = concrete(r.path);
      const forged = signedAs("not-the-key", "identity-svc", bodyless(r.method, path), { identity: owner.identity });
      await expect401(
        await h.call(r.method, path, { headers: { [IDENTITY_HEADER]: forged } }),
        `${r.method} ${r.path} forged`,
      );
    }
  });

  it("refuses an assertion made for another path, query or method, or one that is stale", async () => {
    const path = "/v1/users/me";
    const other = signedAs(h.secret, "identity-svc", bodyless("GET", "/v1/tenants"), { identity: owner.identity });
    await expect401(await h.call("GET", path, { headers: { [IDENTITY_HEADER]: other } }), "other path");
    const query = signedAs(h.secret, "identity-svc", bodyless("GET", `${path}?a=1`), { identity: owner.identity });
    await expect401(await h.call("GET", `${path}?a=2`, { headers: { [IDENTITY_HEADER]: query } }), "other query");
    await expect401(await h.call("GET", path, { headers: { [IDENTITY_HEADER]: query } }), "query dropped");
    const method = signedAs(h.secret, "identity-svc", bodyless("DELETE", path), { identity: owner.identity });
    await expect401(await h.call("GET", path, { headers: { [IDENTITY_HEADER]: method } }), "other method");
    const stale = signedAs(
      h.secret,
      "identity-svc",
      bodyless("GET", path),
      { identity: owner.identity },
      Date.now() - 6_000,
    );
    // Issue 20: a genuine one just past its window may have been held in a stalled queue: refused as 503.
    const held = await h.call("GET", path, { headers: { [IDENTITY_HEADER]: stale } });
    assert.equal(held.status, 503, "stale by 6 s");
    assert.equal(held.headers.get("retry-after"), "1");
    const old = Date.now() - MAX_SKEW_MS - MAX_HELD_MS - 1_000;
    const older = signedAs(h.secret, "identity-svc", bodyless("GET", path), { identity: owner.identity }, old);
    await expect401(await h.call("GET", path, { headers: { [IDENTITY_HEADER]: older } }), "stale");
    await expect401(await h.call("GET", path, { headers: { [IDENTITY_HEADER]: "v3.garbage" } }), "garbage");
  });

  it("refuses an assertion made for another body, or for none", async () => {
    const path = "/v1/users/me";
    const signed = JSON.stringify({ name: "Signed Name" });
    const header = signedAs(
      h.secret,
      "identity-svc",
      { method: "PATCH", target: path, bodySha256: sha256Base64url(signed) },
      { identity: owner.identity },
    );
    const send = (raw: string) =>
      h.call("PATCH", path, { raw, headers: { [IDENTITY_HEADER]: header, "content-type": "application/json" } });
    await expect401(await send(JSON.stringify({ name: "Another Name" })), "other body");
    await expect401(await send(`${signed} `), "one byte more");
    assert.equal((await send(signed)).status, 200, "the signed body itself");
  });

  it("refuses the gateway's own service identity on public API routes", async () => {
    await expect401(
      await h.call("GET", "/v1/users/me", { as: { kind: "service", service: "edge-gateway" } }),
      "service on /v1",
    );
  });

  it("answers 401, not 404, for unknown paths without an assertion, so a direct caller learns nothing", async () => {
    await expect401(await h.call("GET", "/v1/nothing-here"), "unknown path");
    await expect401(await h.call("GET", "/internal/v1/whatever"), "unknown internal path");
  });

  it("lets the public routes through without one", async () => {
    assert.equal((await h.call("GET", "/.well-known/jwks.json")).status, 200);
    assert.equal(
      (await h.call("POST", "/v1/auth/signin", { body: { email: "nobody@example.test", password: "x" } })).status,
      401,
    );
    assert.equal((await h.call("GET", "/healthz")).status, 200);
  });
});
