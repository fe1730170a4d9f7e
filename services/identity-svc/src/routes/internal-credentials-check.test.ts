import assert from "node:assert/strict";
import { afterAll, beforeAll, describe, it } from "vitest";
import { type Harness, startHarness, type TestUser } from "../testing/harness.ts";

/**
 * POST /internal/v1/credentials/check: another service's write re-check (ADR 0012). The same rule
 * as identity-svc's own writes (live-credential.ts), asked for by the services in the route's
 * `callers` only.
 */
let h: Harness;
let owner: TestUser;
let admin: TestUser;
let tenantId: string;
beforeAll(async () => {
  h = await startHarness({ prefix: "id_credcheck" });
  [owner, admin] = await Promise.all([h.signUp(), h.signUp()]);
  tenantId = (await h.createTenant(owner, "Checked")).id;
  await h.addMember(owner, tenantId, admin, "admin");
});
afterAll(() => h.close());

const PATH = "/internal/v1/credentials/check";
const as = (service: "offers-svc" | "connector-svc" | "privacy-svc" | "partner-inbound" | "edge-gateway") =>
  ({ kind: "service", service }) as const;
const check = (identity: unknown, by = as("offers-svc")) => h.call("POST", PATH, { as: by, body: { identity } });
const codeOf = async (res: Response) => (res.status === 204 ? [204] : [res.status, (await res.json()).code]);

describe("the credential check other services ask before a write", () => {
  it("answers 204 for a live session and a live key", async () => {
    assert.deepEqual(await codeOf(await check(owner.identity)), [204]);
    assert.deepEqual(await codeOf(await check(await h.apiKey(admin, tenantId, "write"))), [204]);
  });

  it("answers SESSION_REVOKED after sign-out and INVALID_API_KEY once the key's creator is demoted", async () => {
    const leaver = await h.signUp();
    const out = await h.call("POST", "/v1/auth/signout", { as: leaver.identity });
    assert.equal(out.status, 204, await out.clone().text());
    assert.deepEqual(await codeOf(await check(leaver.identity)), [401, "SESSION_REVOKED"]);

    const creator = await h.signUp();
    await h.addMember(owner, tenantId, creator, "admin");
    const key = await h.apiKey(creator, tenantId, "write");
    const demoted = await h.call("PATCH", `/v1/tenants/${tenantId}/members/${creator.sub}`, {
      as: owner.identity,
      body: { role: "member" },
    });
    assert.equal(demoted.status, 200, await demoted.clone().text());
    assert.deepEqual(await codeOf(await check(key)), [401, "INVALID_API_KEY"]);
  });

  it("is for the services that write for callers only: any other caller 403 FORBIDDEN", async () => {
    for (const other of [as("partner-inbound"), as("edge-gateway")]) {
      assert.deepEqual(await codeOf(await check(owner.identity, other)), [403, "FORBIDDEN"], other.service);
    }
    for (const caller of [as("connector-svc"), as("privacy-svc")]) {
      assert.deepEqual(await codeOf(await check(owner.identity, caller)), [204], caller.service);
    }
    const res = await h.call("POST", PATH, { as: owner.identity, body: { identity: owner.identity } });
    assert.deepEqual(await codeOf(res), [403, "FORBIDDEN"]);
  });

  it("answers 400 to anything but a user or key identity", async () => {
    for (const identity of [as("offers-svc"), { kind: "user", sub: owner.sub }, "x", null]) {
      assert.deepEqual(await codeOf(await check(identity)), [400, "VALIDATION_FAILED"], JSON.stringify(identity));
    }
  });
});
