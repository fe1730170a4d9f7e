import assert from "node:assert/strict";
import { bodyless, IDENTITY_HEADER } from "@flowstate/shared/auth/identity-assertion";
import { expectRouteContract } from "@flowstate/shared/testing/route-contract";
import { signedAs } from "@flowstate/shared/testing/signed-as";
import { afterAll, beforeAll, describe, it } from "vitest";
import { type PrivacyHarness, startPrivacyHarness } from "./testing/harness.ts";

let h: PrivacyHarness;
beforeAll(async () => {
  h = await startPrivacyHarness({ prefix: "pr_app" });
});
afterAll(() => h.close());

const user = { kind: "user", sub: "usr_0123456789abcdefghij", sid: "ses_0123456789abcdefghij" } as const;

describe("the privacy-svc app", () => {
  it("serves exactly its routes of the registry, each checked against its schemas", () => {
    expectRouteContract(h.app, "privacy-svc");
  });

  it("refuses every request without a gateway assertion, on known and unknown paths alike", async () => {
    for (const [method, path] of [
      ["POST", "/v1/users/me/export"],
      ["GET", "/v1/users/me/export/exp_0123456789abcdefghij"],
      ["GET", "/internal/v1/anything"],
    ] as const) {
      const res = await h.call(method, path);
      assert.equal(res.status, 401, `${method} ${path}`);
      assert.equal((await res.json()).code, "UNAUTHENTICATED");
    }
  });

  it("refuses a service identity, a forged header and a header signed for another request", async () => {
    const asService = await h.call("POST", "/v1/users/me/export", { as: { kind: "service", service: "privacy-svc" } });
    // No service holds a key with privacy-svc for /v1 (its own identity least of all): 403 (ADR 0014).
    assert.equal(asService.status, 403);
    const forged = await h.app.request("/v1/users/me/export", {
      method: "POST",
      headers: { "flowstate-identity": "v3.0.e30.forged" },
    });
    assert.equal(forged.status, 401);
    const forGet = signedAs(h.secret, "privacy-svc", bodyless("GET", "/v1/users/me/export/exp_0123456789abcdefghij"), {
      identity: user,
      channel: "rest",
    });
    const moved = await h.app.request("/v1/users/me/export", {
      method: "POST",
      headers: { [IDENTITY_HEADER]: forGet },
    });
    assert.equal(moved.status, 401);
  });

  it("refuses an API key on the user routes", async () => {
    const res = await h.call("POST", "/v1/users/me/export", {
      as: {
        kind: "api_key",
        sub: user.sub,
        key_id: "key_0123456789abcdefghij",
        tenant_id: "tnt_0123456789abcdefghij",
        scope: "write",
      },
    });
    assert.equal(res.status, 403);
    assert.equal((await res.json()).code, "API_KEY_NOT_ALLOWED");
  });
});
