import assert from "node:assert/strict";
import { afterAll, beforeAll, describe, test } from "vitest";
import { domainEvent, newSub, newTenantId } from "../testing/events.ts";
import { type AuditHarness, startAuditHarness } from "../testing/harness.ts";
import { recordEvent } from "../verbs/record-event.ts";

let h: AuditHarness;
const tenant = newTenantId();
const other = newTenantId();
const sub = newSub();
const sid = "ses_0123456789abcdefghij";
const T = `/v1/tenants/${tenant}/audit-events`;

beforeAll(async () => {
  h = await startAuditHarness({ prefix: "au_sec" });
  await h.inTransaction((em) =>
    recordEvent(em, h.schema, domainEvent("TenantRenamed.v1", { tenant_id: tenant }, { tenant_id: tenant }), h.logger),
  );
});
afterAll(() => h?.close());

const problem = async (path: string, o: Parameters<AuditHarness["call"]>[2]) => {
  const res = await h.call("GET", path, o);
  return { status: res.status, body: (await res.json()) as { code: string; detail: string } };
};

describe("who may read a tenant's audit trail", () => {
  test("a member is refused (admins and owner only)", async () => {
    const res = await problem(T, { as: { kind: "user", sub, sid }, tenant: { tenant_id: tenant, role: "member" } });
    assert.deepEqual([res.status, res.body.code], [403, "INSUFFICIENT_ROLE"]);
  });

  test("an assertion for another tenant, or none, reads exactly like a missing tenant", async () => {
    const missing = await problem(`/v1/tenants/${newTenantId()}/audit-events`, {
      as: { kind: "user", sub, sid },
      tenant: { tenant_id: other, role: "owner" },
    });
    const foreign = await problem(T, { as: { kind: "user", sub, sid }, tenant: { tenant_id: other, role: "owner" } });
    const none = await problem(T, { as: { kind: "user", sub, sid } });
    for (const res of [missing, foreign, none]) assert.deepEqual([res.status, res.body.code], [404, "NOT_FOUND"]);
    assert.equal(foreign.body.detail, missing.body.detail);
  });

  test("another tenant's API key reads exactly like a missing tenant", async () => {
    const res = await problem(T, {
      as: { kind: "api_key", sub, key_id: "key_0123456789abcdefghij", tenant_id: other, scope: "write" },
    });
    assert.deepEqual([res.status, res.body.code], [404, "NOT_FOUND"]);
  });

  test("a read-scoped key of the tenant is refused (it stands for a member)", async () => {
    const res = await problem(T, {
      as: { kind: "api_key", sub, key_id: "key_0123456789abcdefghij", tenant_id: tenant, scope: "read" },
    });
    assert.deepEqual([res.status, res.body.code], [403, "INSUFFICIENT_SCOPE"]);
  });

  test("an API key cannot read /users/me/audit-events", async () => {
    const res = await problem("/v1/users/me/audit-events", {
      as: { kind: "api_key", sub, key_id: "key_0123456789abcdefghij", tenant_id: tenant, scope: "read" },
    });
    assert.deepEqual([res.status, res.body.code], [403, "API_KEY_NOT_ALLOWED"]);
  });

  test("input is validated: bad filters 400 VALIDATION_FAILED, a cursor not given out 400 INVALID_CURSOR", async () => {
    const owner = { as: { kind: "user", sub, sid }, tenant: { tenant_id: tenant, role: "owner" } } as const;
    for (const q of ["actor_sub=jane@example.com", "type=member.invited", "from=yesterday", "limit=0", "limit=101"]) {
      const res = await problem(`${T}?${q}`, owner);
      assert.deepEqual([res.status, res.body.code], [400, "VALIDATION_FAILED"], q);
    }
    const forged = Buffer.from(JSON.stringify(["2026-11-01", "1; DROP TABLE audit_event"])).toString("base64url");
    for (const cursor of ["abc", forged]) {
      const res = await problem(`${T}?cursor=${cursor}`, owner);
      assert.deepEqual([res.status, res.body.code], [400, "INVALID_CURSOR"], cursor);
    }
  });
});
