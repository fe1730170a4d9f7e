import assert from "node:assert/strict";
import { unparseableRequests } from "@flowstate/shared/testing/malformed-http";
import { rawRequest } from "@flowstate/shared/testing/raw-http";
import { afterAll, beforeAll, describe, it } from "vitest";
import { SECURITY_HEADERS } from "../src/http/security-headers.ts";
import { type Account, type E2E, startE2E } from "./e2e-stack.ts";

/**
 * Issue 7, "Headers": every answer of the gateway carries HSTS and nosniff exactly once (a
 * service's own values replaced, never doubled), whoever wrote it: a relayed success or refusal,
 * the gateway's own refusals, probes, the OpenAPI document and docs, 404 and 405, the OAuth pages
 * and endpoints, malformed HTTP. Authenticated answers, token answers and problems are
 * `Cache-Control: no-store`. /metrics is not on the public port.
 */
type Got = { status: number; header: (name: string) => string | null | undefined };

function assertSecurity(got: Got, what: string) {
  for (const [name, value] of Object.entries(SECURITY_HEADERS))
    assert.equal(got.header(name), value, `${what}: ${name}`);
}
function assertNoStore(got: Got, what: string) {
  assert.equal(got.header("cache-control"), "no-store", `${what}: cache-control`);
}

describe("the gateway's response headers", () => {
  let e2e: E2E;
  let owner: Account;
  let tenantId: string;
  const get = async (path: string, init: RequestInit = {}): Promise<Got> => {
    const res = await fetch(`${e2e.gateway.url}${path}`, { redirect: "manual", ...init });
    await res.arrayBuffer();
    return { status: res.status, header: (n) => res.headers.get(n) };
  };
  const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

  beforeAll(async () => {
    e2e = await startE2E("gw_resp_headers", { BODY_LIMIT_BYTES: 4096 });
    owner = await e2e.signUp();
    tenantId = (await e2e.call("POST", "/v1/tenants", { token: owner.token, body: { name: "Headers" } })).json.id;
  });
  afterAll(() => e2e.close());

  it("relayed answers: authenticated ones are no-store, token answers too, public ones keep what the service says", async () => {
    const cases: [string, Promise<Got>, "no-store" | "any"][] = [
      ["GET /v1/users/me", get("/v1/users/me", { headers: bearer(owner.token) }), "no-store"],
      ["GET /v1/tenants/{id}", get(`/v1/tenants/${tenantId}`, { headers: bearer(owner.token) }), "no-store"],
      [
        "a service's own 400 (PATCH with a bad body)",
        get(`/v1/tenants/${tenantId}`, {
          method: "PATCH",
          headers: { ...bearer(owner.token), "content-type": "application/json" },
          body: JSON.stringify({ name: 42 }),
        }),
        "no-store",
      ],
      [
        "sign-in (tokens)",
        get("/v1/auth/signin", {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ email: owner.email, password: owner.password }),
        }),
        "no-store",
      ],
      [
        "OAuth token endpoint (an invalid grant)",
        get("/oauth/token", {
          method: "POST",
          headers: { "content-type": "application/x-www-form-urlencoded" },
          body: "grant_type=authorization_code&code=nope&client_id=nope&code_verifier=nope&redirect_uri=http%3A%2F%2F127.0.0.1%2Fcb",
        }),
        "no-store",
      ],
      ["OAuth authorize page (an invalid request)", get("/oauth/authorize?client_id=nope"), "no-store"],
      ["OAuth metadata", get("/.well-known/oauth-authorization-server"), "any"],
      ["JWKS", get("/.well-known/jwks.json"), "any"],
    ];
    for (const [what, answer, cache] of cases) {
      const got = await answer;
      assertSecurity(got, `${what} (${got.status})`);
      if (cache === "no-store") assertNoStore(got, `${what} (${got.status})`);
      else assert.ok(got.header("cache-control"), `${what}: a public answer says how it may be cached`);
    }
  });

  it("the gateway's own answers: refusals, 404, 405, 413, probes, OpenAPI, docs; no /metrics here", async () => {
    const refusals: [string, Promise<Got>][] = [
      ["401 without a credential", get("/v1/users/me")],
      ["401 with a bad token", get("/v1/users/me", { headers: bearer("a.b.c") })],
      ["404 for another tenant", get("/v1/tenants/tnt_00000000000000000000", { headers: bearer(owner.token) })],
      ["405", get("/v1/users/me", { method: "PUT", headers: bearer(owner.token) })],
      [
        "413",
        get("/v1/auth/signin", {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: "x".repeat(5000),
        }),
      ],
    ];
    for (const [what, answer] of refusals) {
      const got = await answer;
      assert.ok(got.status >= 400, what);
      assertSecurity(got, what);
      assertNoStore(got, what);
    }
    for (const path of ["/healthz", "/readyz", "/openapi.json", "/docs", "/no/such/route", "/metrics"]) {
      const got = await get(path);
      assertSecurity(got, path);
    }
    assert.equal((await get("/metrics")).status, 404, "the public port serves no /metrics");
    assert.equal((await get("/no/such/route")).status, 404);
  });

  it("malformed HTTP answered outside the app carries them too", async () => {
    for (const [what, bytes] of unparseableRequests("GET", "/v1/users/me")) {
      const answer = await rawRequest(e2e.gateway.url, bytes);
      assert.equal(answer.status, 400, what);
      const got = { status: answer.status, header: (n: string) => answer.headers[n] };
      assertSecurity(got, what);
      assertNoStore(got, what);
    }
  });
});
