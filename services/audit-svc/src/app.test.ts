import assert from "node:assert/strict";
import { bodyless, IDENTITY_HEADER } from "@flowstate/shared/auth/identity-assertion";
import { expectRouteContract } from "@flowstate/shared/testing/route-contract";
import { signedAs } from "@flowstate/shared/testing/signed-as";
import { afterAll, beforeAll, describe, it } from "vitest";
import { type AuditHarness, startAuditHarness } from "./testing/harness.ts";

let h: AuditHarness;
beforeAll(async () => {
  h = await startAuditHarness({ prefix: "au_app" });
});
afterAll(() => h?.close());

const user = { kind: "user", sub: "usr_0123456789abcdefghij", sid: "ses_0123456789abcdefghij" } as const;
const tenantPath = "/v1/tenants/tnt_0123456789abcdefghij/audit-events";

describe("the audit-svc app", () => {
  it("serves exactly its routes of the registry, each checked against its schemas", () => {
    expectRouteContract(h.app, "audit-svc");
  });

  it("refuses every request without a gateway assertion, on known and unknown paths alike", async () => {
    for (const path of [tenantPath, "/v1/users/me/audit-events", "/internal/v1/anything", "/v1/nothing"]) {
      const res = await h.call("GET", path);
      assert.equal(res.status, 401, path);
      assert.equal((await res.json()).code, "UNAUTHENTICATED");
    }
  });

  it("refuses a service identity, a forged header and a header signed for another request", async () => {
    const asService = await h.call("GET", "/v1/users/me/audit-events", {
      as: { kind: "service", service: "privacy-svc" },
    });
    // No service calls audit-svc: privacy-svc holds no key with it, so it may not call at all (ADR 0014).
    assert.equal(asService.status, 403);
    const forged = await h.app.request("/v1/users/me/audit-events", {
      headers: { [IDENTITY_HEADER]: "v3.0.e30.forged" },
    });
    assert.equal(forged.status, 401);
    const forOther = signedAs(h.secret, "audit-svc", bodyless("GET", "/v1/users/me/audit-events?limit=1"), {
      identity: user,
      channel: "rest",
    });
    const moved = await h.app.request("/v1/users/me/audit-events?limit=2", {
      headers: { [IDENTITY_HEADER]: forOther },
    });
    assert.equal(moved.status, 401);
  });
});
